/** Listing of an output directory (generated/), shared by write and the drift check. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mapLimited } from './map-limited.js';
import type { OutputFile } from './stages.js';

/** All files below dir, relative, posix separators, sorted. Missing dir = empty. */
export async function listFiles(dir: string): Promise<string[]> {
  return listFilesSync(dir, '').sort();
}

/** Synchronous listing: for thousands of entries far faster than fs/promises (no thread-pool round trips). */
function listFilesSync(dir: string, prefix: string): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFilesSync(dir, rel));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

export function toBuffer(content: OutputFile['content']): Buffer {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
}

export async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** Which files of generated/ a build owns (and so may prune). */
export type OwnedScope = (relativePath: string) => boolean;

export interface DriftReport {
  readonly changed: string[];
  readonly missing: string[];
  readonly stale: string[];
}

/**
 * What differs between `files` and dir, comparing real bytes. `sameOnDisk` may vouch that a file
 * still holds given bytes without reading it (the build's record of what it wrote last time);
 * `wharf check` passes none.
 */
export async function diffOutputs(
  dir: string,
  files: readonly OutputFile[],
  owned: OwnedScope,
  sameOnDisk?: (file: OutputFile) => Promise<boolean>,
): Promise<DriftReport> {
  const changed: string[] = [];
  const missing: string[] = [];
  const wanted = new Set(files.map((f) => f.path));
  // one listing up front: a file it does not hold is missing without an open that fails (a full
  // build into an empty generated/ tried ~1,000 of them; on a slow file system each costs)
  const present = await listFiles(dir);
  const onDisk = new Set(present);
  const states = await mapLimited(files, async (f) => {
    if (!onDisk.has(f.path)) return 'missing';
    if (sameOnDisk && (await sameOnDisk(f))) return 'same';
    const current = await readIfExists(path.join(dir, f.path));
    if (current === null) return 'missing';
    return current.equals(toBuffer(f.content)) ? 'same' : 'changed';
  });
  files.forEach((f, i) => {
    if (states[i] === 'missing') missing.push(f.path);
    else if (states[i] === 'changed') changed.push(f.path);
  });
  const stale = present.filter((p) => owned(p) && !wanted.has(p));
  return { changed: changed.sort(), missing: missing.sort(), stale };
}

export function isClean(report: DriftReport): boolean {
  return report.changed.length + report.missing.length + report.stale.length === 0;
}
