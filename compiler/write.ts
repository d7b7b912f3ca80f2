/**
 * Last stage: put the outputs on disk. Only files whose bytes change are written, each
 * atomically (temp file + rename), manifest.json last so a runtime that reloads on it never
 * sees a manifest newer than its route bundle; files the build owns but no longer produces are
 * pruned, and emptied folders removed.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rm, rmdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { GENERATED_FILES } from '../runtime/contract/index.js';
import { diffOutputs, toBuffer, type OwnedScope } from './output-tree.js';
import type { OutputFile } from './stages.js';

export interface WriteReport {
  readonly written: string[];
  readonly removed: string[];
}

const WRITE_REASONS: Readonly<Record<string, string>> = {
  EISDIR: 'a directory of that name is in the way',
  EEXIST: 'a file is in the way of its folder',
  ENOTDIR: 'a file is in the way of its folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
};

/** An output that could not be put on disk: names it (relative to generated/) and why, without the machine's paths. */
export class OutputWriteError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? '';
    super(`generated/${file} cannot be written: ${WRITE_REASONS[code] ?? (cause instanceof Error ? cause.message : String(cause))}`, { cause });
  }
}

/**
 * Synchronous: a full build writes ~1,000 small files, and three thread-pool round trips per file
 * (mkdir, write, rename) left the build idle for about 0.4 s of its 2 s.
 */
function writeAtomic(file: string, data: Buffer, made: Set<string>): void {
  const dir = path.dirname(file);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
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
  const made = new Set<string>();
  for (const f of ordered) {
    try {
      writeAtomic(path.join(dir, f.path), toBuffer(f.content), made);
    } catch (error) {
      try {
        rmSync(`${path.join(dir, f.path)}.${process.pid}.tmp`, { force: true });
      } catch {
        // no temp file was made (its folder is what is in the way)
      }
      throw new OutputWriteError(f.path, error);
    }
  }
  for (const stale of drift.stale) await rm(path.join(dir, stale), { force: true });
  await removeEmptyDirs(dir);
  return { written: ordered.map((f) => f.path), removed: drift.stale };
}
