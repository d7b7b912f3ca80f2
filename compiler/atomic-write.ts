/**
 * How the build writes its own files (caches, records, the database snapshot): through a temporary
 * name in the same folder and a rename, so a reader or a concurrent build never sees half a file.
 * Not fsynced: these are caches and build outputs a later build makes again (the console's settings
 * and accounts, which must survive a crash, use runtime/admin/atomic-file.ts).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeThroughTemp(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

export function writeThroughTempSync(file: string, data: string | Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}
