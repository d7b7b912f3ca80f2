/**
 * Stage 1: find every endpoints/<TypeFolder>/[namespace folders/]<Name>/entity.json.
 * Pure over the file system listing; reads no file contents.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from './diagnostics.js';
import { TYPE_FOLDERS, type DiscoveredEntity, type TypeFolder } from './stages.js';

export const ENTITY_FILE = 'entity.json';

export interface DiscoverResult {
  readonly entities: DiscoveredEntity[];
  readonly diagnostics: Diagnostic[];
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

function fileDiagnostic(file: string, code: string, message: string, hint?: string): Diagnostic {
  return { severity: 'warning', code, file, line: 0, column: 0, pointer: '', message, ...(hint ? { hint } : {}) };
}

async function listDir(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * A symbolic link named entity.json, or one to a folder: the build follows no links (their target
 * may lie outside the project, or loop), so the endpoint it seems to add does not exist.
 */
function ignoredLink(root: string, dir: string, entry: Dirent): Diagnostic | null {
  if (!entry.isSymbolicLink()) return null;
  const file = path.join(dir, entry.name);
  let toFolder = false;
  try {
    toFolder = statSync(file).isDirectory();
  } catch {
    // a broken link or a loop: only reported when it is named entity.json
  }
  if (entry.name !== ENTITY_FILE && !toFolder) return null;
  const rel = toPosix(path.relative(root, file));
  return fileDiagnostic(
    rel,
    'symlink-ignored',
    `'${entry.name}' is a symbolic link; the build follows no links, so it is ignored`,
    toFolder ? 'Move or copy the folder into endpoints/ instead of linking it.' : 'Replace the link with the file itself.',
  );
}

/** Walk of one type folder, sibling folders listed concurrently; `folders` are the directories above `dir`. */
async function walk(root: string, typeFolder: TypeFolder, dir: string, folders: string[], diagnostics: Diagnostic[]): Promise<DiscoveredEntity[]> {
  const entries = await listDir(dir);
  const out: DiscoveredEntity[] = [];
  for (const entry of entries) {
    const link = ignoredLink(root, dir, entry);
    if (link) diagnostics.push(link);
  }
  // a directory named entity.json is listed too: reading it is a file-unreadable error, not a silently missing endpoint
  if (folders.length > 0 && entries.some((e) => (e.isFile() || e.isDirectory()) && e.name === ENTITY_FILE)) {
    const absolutePath = path.join(dir, ENTITY_FILE);
    out.push({
      file: toPosix(path.relative(root, absolutePath)),
      absolutePath,
      typeFolder,
      folders: folders.slice(0, -1),
      name: folders[folders.length - 1] as string,
    });
  }
  const below = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules' && e.name !== ENTITY_FILE);
  for (const found of await Promise.all(below.map((e) => walk(root, typeFolder, path.join(dir, e.name), [...folders, e.name], diagnostics)))) out.push(...found);
  return out;
}

export async function discover(root: string, endpointsDir = 'endpoints'): Promise<DiscoverResult> {
  const base = path.join(root, endpointsDir);
  const diagnostics: Diagnostic[] = [];
  const entities: DiscoveredEntity[] = [];
  const top = (await listDir(base)).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of top) {
    const rel = toPosix(path.join(endpointsDir, entry.name));
    const link = ignoredLink(root, base, entry);
    if (link) diagnostics.push(link);
    if (!entry.isDirectory()) {
      if (entry.name === ENTITY_FILE) {
        diagnostics.push(fileDiagnostic(rel, 'misplaced-entity', 'entity.json must be inside a type folder and an endpoint folder', 'Move it to endpoints/SQL/<Name>/entity.json (or Proxy, Static, Files, Webhooks).'));
      }
      continue;
    }
    if (entry.name.startsWith('.')) continue;
    const typeFolder = TYPE_FOLDERS.find((t) => t === entry.name);
    if (!typeFolder) {
      const near = TYPE_FOLDERS.find((t) => t.toLowerCase() === entry.name.toLowerCase());
      diagnostics.push(
        fileDiagnostic(
          rel,
          'unknown-type-folder',
          `Folder '${entry.name}' is not an endpoint type folder; its files are ignored`,
          near ? `Did you mean '${near}'? Type folders are case-sensitive.` : `Type folders are ${TYPE_FOLDERS.join(', ')}.`,
        ),
      );
      continue;
    }
    if ((await listDir(path.join(base, entry.name))).some((e) => e.isFile() && e.name === ENTITY_FILE)) {
      diagnostics.push(fileDiagnostic(`${rel}/${ENTITY_FILE}`, 'misplaced-entity', 'entity.json directly inside a type folder has no endpoint name; it is ignored', `Move it to ${rel}/<Name>/entity.json.`));
    }
    entities.push(...(await walk(root, typeFolder, path.join(base, entry.name), [], diagnostics)));
  }
  entities.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { entities, diagnostics };
}
