/** SHA-256 over the sorted source files (relative path + NUL + bytes + NUL) that a build reads. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listFiles } from './output-tree.js';

export async function hashSources(root: string, folders: readonly string[]): Promise<string> {
  const files = (await Promise.all([...folders].sort().map(async (f) => (await listFiles(path.join(root, f))).map((rel) => `${f}/${rel}`)))).flat();
  const contents = files.map((rel) => readFileSync(path.join(root, rel))); // sync: far faster for many small files
  const hash = createHash('sha256');
  files.forEach((rel, i) => hash.update(`${rel}\0`).update(contents[i] as Buffer).update('\0'));
  return hash.digest('hex');
}
