/**
 * File destination: each batch becomes one JSON file at the path template (relative to the
 * project folder), written atomically (temporary file in the same folder, then rename, then the
 * folder synced). The template values are validated names and a number, and the result must stay
 * inside the project, also with symbolic links followed (a folder on the way that links out is
 * refused). The temporary file is created exclusively (never through a planted link) and removed
 * when the write fails (disk full, read-only folder): the batch then is not delivered.
 */
import { existsSync } from 'node:fs';
import { open, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { containedPath, resolvesInside } from '../../contract/contained-path.js';
import type { FileDestination } from '../config/model.js';
import { batchEnvelope, type Batch } from './batch.js';
import { fillTemplate, type SyncDestination } from './destination.js';

export const VERSION_DIGITS = 12;

export function filePathOf(config: FileDestination, root: string, batch: Batch): string {
  const relative = fillTemplate(config.path, {
    environment: batch.environment,
    object: batch.object,
    version: String(batch.toVersion).padStart(VERSION_DIGITS, '0') + (batch.part === undefined ? '' : `.part${batch.part}`),
    fromVersion: String(batch.fromVersion).padStart(VERSION_DIGITS, '0'),
  });
  const inside = containedPath(relative);
  if (inside === null || inside === '' || inside === '.') throw new Error(`file destination ${config.key}: path leaves the project folder`);
  return path.resolve(root, inside);
}

/** `folder`, or its nearest ancestor that exists. */
function deepestExisting(folder: string): string {
  let current = folder;
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

function insideWithLinks(config: FileDestination, root: string, folder: string): void {
  const relative = path.relative(root, folder);
  if (relative !== '' && !resolvesInside(root, relative)) throw new Error(`file destination ${config.key}: path leaves the project folder through a symbolic link`);
}

export function createFileDestination(config: FileDestination, root: string): SyncDestination & { pathOf(batch: Batch): string } {
  let sequence = 0;
  return {
    key: config.key,
    type: 'File',
    pathOf: (batch) => filePathOf(config, root, batch),
    async deliver(batch) {
      const target = filePathOf(config, root, batch);
      const folder = path.dirname(target);
      // Checked before mkdir (which would follow a link and create folders outside) and after it.
      insideWithLinks(config, root, deepestExisting(folder));
      await mkdir(folder, { recursive: true });
      insideWithLinks(config, root, folder);
      const temporary = `${target}.${process.pid}.${++sequence}.tmp`;
      try {
        await writeFile(temporary, `${JSON.stringify(batchEnvelope(batch), null, 2)}\n`, { flush: true, flag: 'wx' });
        await rename(temporary, target);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw error;
      }
      const handle = await open(folder, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    async close() {},
  };
}
