/** Find the Markdown files of a docs folder (sorted, posix, hidden folders and node_modules skipped). */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAssetFile } from './plugins/env.js';

export interface DocsSourceFile {
  /** Relative to the docs folder, posix separators. */
  readonly file: string;
  readonly text: string;
}

export interface DocsAssetFile {
  readonly file: string;
  readonly bytes: Uint8Array;
}

export interface DocsSources {
  readonly pages: readonly DocsSourceFile[];
  /** Images and PDFs (see DOCS_ASSET_TYPES). */
  readonly assets: readonly DocsAssetFile[];
  /** config.json text, null when absent. */
  readonly config: string | null;
}

async function walk(dir: string, rel: string, out: string[], assets: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await walk(join(dir, entry.name), relPath, out, assets);
    else if (entry.isFile() && /\.md$/i.test(entry.name)) out.push(relPath);
    else if (entry.isFile() && isAssetFile(entry.name)) assets.push(relPath);
  }
}

export async function discoverDocs(docsDirAbs: string): Promise<DocsSources> {
  const files: string[] = [];
  const assetFiles: string[] = [];
  await walk(docsDirAbs, '', files, assetFiles);
  files.sort();
  assetFiles.sort();
  const pages = await Promise.all(files.map(async (file) => ({ file, text: await readFile(join(docsDirAbs, file), 'utf8') })));
  const config = await readFile(join(docsDirAbs, 'config.json'), 'utf8').catch(() => null);
  const assets = await Promise.all(assetFiles.map(async (file) => ({ file, bytes: new Uint8Array(await readFile(join(docsDirAbs, file))) })));
  return { pages, assets, config };
}
