/**
 * File destination: each batch becomes one JSON file at the path template (relative to the
 * project folder), written atomically (temporary file in the same folder, then rename). The
 * template values are validated names and a number, and the result must stay inside the project.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
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
  const absolute = path.resolve(root, relative);
  const inside = path.relative(root, absolute);
  if (inside.startsWith('..') || path.isAbsolute(inside)) throw new Error(`file destination ${config.key}: path leaves the project folder`);
  return absolute;
}

export function createFileDestination(config: FileDestination, root: string): SyncDestination & { pathOf(batch: Batch): string } {
  let sequence = 0;
  return {
    key: config.key,
    type: 'File',
    pathOf: (batch) => filePathOf(config, root, batch),
    async deliver(batch) {
      const target = filePathOf(config, root, batch);
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.${++sequence}.tmp`;
      await writeFile(temporary, `${JSON.stringify(batchEnvelope(batch), null, 2)}\n`, { flush: true });
      await rename(temporary, target);
    },
    async close() {},
  };
}
