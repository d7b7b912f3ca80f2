/**
 * Last stage: put the outputs on disk. Only files whose bytes change are written, each
 * atomically (temp file + rename), manifest.json last so a runtime that reloads on it never
 * sees a manifest newer than its route bundle; files the build owns but no longer produces are
 * pruned, and emptied folders removed.
 */
import { mkdir, rename, rm, rmdir, writeFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { GENERATED_FILES } from '../runtime/contract/index.js';
import { diffOutputs, toBuffer, type OwnedScope } from './output-tree.js';
import type { OutputFile } from './stages.js';

export interface WriteReport {
  readonly written: string[];
  readonly removed: string[];
}

async function writeAtomic(file: string, data: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

async function removeEmptyDirs(dir: string, isRoot = true): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) if (e.isDirectory()) await removeEmptyDirs(path.join(dir, e.name), false);
  if (!isRoot && (await readdir(dir)).length === 0) await rmdir(dir);
}

/** `sameOnDisk`: see diffOutputs (the build passes its record of the last write; compiler/build-cache.ts). */
export async function writeOutputs(
  dir: string,
  files: readonly OutputFile[],
  owned: OwnedScope,
  sameOnDisk?: (file: OutputFile) => Promise<boolean>,
): Promise<WriteReport> {
  const drift = await diffOutputs(dir, files, owned, sameOnDisk);
  const toWrite = new Set([...drift.changed, ...drift.missing]);
  const ordered = files
    .filter((f) => toWrite.has(f.path))
    .sort((a, b) => Number(a.path === GENERATED_FILES.manifest) - Number(b.path === GENERATED_FILES.manifest));
  for (const f of ordered) await writeAtomic(path.join(dir, f.path), toBuffer(f.content));
  for (const stale of drift.stale) await rm(path.join(dir, stale), { force: true });
  await removeEmptyDirs(dir);
  return { written: ordered.map((f) => f.path), removed: drift.stale };
}
