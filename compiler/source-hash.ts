/** SHA-256 over the sorted source files (relative path + NUL + bytes + NUL) that a build reads. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listFiles } from './output-tree.js';

/** The folders whose files make a build's source hash (the manifest's `sourceHash`). */
export const SOURCE_FOLDERS: readonly string[] = ['endpoints', 'schemas'];

export async function hashSources(root: string, folders: readonly string[]): Promise<string> {
  const files = (await Promise.all([...folders].sort().map(async (f) => (await listFiles(path.join(root, f))).map((rel) => `${f}/${rel}`)))).flat();
  const contents = files.map((rel) => readSource(path.join(root, rel)) ?? UNREADABLE); // sync: far faster for many small files
  return hashSourceFiles(files.map((rel, i) => [rel, contents[i] as Buffer]));
}

/** What an unreadable source file hashes as: the build names it (`file-unreadable`) and fails, never here. */
export const UNREADABLE = Buffer.from('\0unreadable\0');

/** A source file's bytes, or null when it cannot be read (no permission, removed meanwhile). */
export function readSource(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** The same digest over files already read ([path relative to the root, bytes], in hashSources' order). */
export function hashSourceFiles(files: ReadonlyArray<readonly [string, Uint8Array]>): string {
  const hash = createHash('sha256');
  for (const [rel, bytes] of files) hash.update(`${rel}\0`).update(bytes).update('\0');
  return hash.digest('hex');
}
