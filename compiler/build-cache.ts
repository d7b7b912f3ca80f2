/**
 * The build's memory between runs: `<root>/.wharf/build-cache.json` holds a key over everything a
 * build reads (the source folders, the compiler and runtime sources that shape the output, the
 * lock file, the options) and the SHA-256 of every file the build wrote to generated/. When the key
 * matches and generated/ still holds exactly those bytes, the build has nothing to do and skips
 * compiling; any other case (a changed input, an edited or deleted output, no cache) is a full
 * build, whose bytes are by construction those of a fresh build. Never committed (.gitignore).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles } from './output-tree.js';
import { hashSources } from './source-hash.js';
import type { OutputFile } from './stages.js';

const CACHE_VERSION = 1;
/** The code whose changes change the output (the emitters bundle runtime code). */
const TOOL_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOOL_FOLDERS = ['compiler', 'runtime'];

export interface BuildCacheEntry {
  readonly version: number;
  readonly key: string;
  readonly endpoints: number;
  /** Formatted diagnostics of that build (warnings), printed again on a cached run. */
  readonly diagnostics: readonly string[];
  /** path under generated/ -> sha256 of its bytes, for every file the build owns. */
  readonly outputs: Readonly<Record<string, string>>;
}

let toolHash: Promise<string> | null = null;

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The key over every input of a build of `root`. */
export async function buildKey(root: string, options: { docs: boolean }): Promise<string> {
  toolHash ??= (async () => {
    const lock = await readFile(path.join(TOOL_ROOT, 'package-lock.json')).catch(() => Buffer.alloc(0));
    return sha256(`${await hashSources(TOOL_ROOT, TOOL_FOLDERS)}\0${sha256(lock)}`);
  })();
  const sources = await hashSources(root, options.docs ? ['endpoints', 'schemas', 'docs'] : ['endpoints', 'schemas']);
  return sha256(`${CACHE_VERSION}\0${await toolHash}\0${sources}\0docs=${options.docs}`);
}

function cacheFile(root: string): string {
  return path.join(root, '.wharf', 'build-cache.json');
}

export async function readBuildCache(root: string): Promise<BuildCacheEntry | null> {
  try {
    const entry = JSON.parse(await readFile(cacheFile(root), 'utf8')) as BuildCacheEntry;
    return entry.version === CACHE_VERSION ? entry : null;
  } catch {
    return null;
  }
}

export async function writeBuildCache(root: string, entry: Omit<BuildCacheEntry, 'version' | 'outputs'>, files: readonly OutputFile[]): Promise<void> {
  const outputs = Object.fromEntries(files.map((f) => [f.path, sha256(f.content)]));
  const file = cacheFile(root);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify({ version: CACHE_VERSION, ...entry, outputs })}\n`);
  await rename(tmp, file);
}

/** True when generated/ holds exactly the recorded files (among those this build owns). */
export async function outputsIntact(generatedDir: string, entry: BuildCacheEntry, owns: (p: string) => boolean): Promise<boolean> {
  const onDisk = (await listFiles(generatedDir)).filter(owns).sort();
  const recorded = Object.keys(entry.outputs).sort();
  if (onDisk.length !== recorded.length || onDisk.some((p, i) => p !== recorded[i])) return false;
  for (const rel of recorded) {
    const bytes = await readFile(path.join(generatedDir, rel)).catch(() => null);
    if (!bytes || sha256(bytes) !== entry.outputs[rel]) return false;
  }
  return true;
}
