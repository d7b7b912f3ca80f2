/** SHA-256 over the sorted source files (relative path + NUL + bytes) that a build reads. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from './output-tree.js';

export async function hashSources(root: string, folders: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const folder of [...folders].sort()) {
    for (const rel of await listFiles(path.join(root, folder))) {
      hash.update(`${folder}/${rel}\0`);
      hash.update(await readFile(path.join(root, folder, rel)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}
