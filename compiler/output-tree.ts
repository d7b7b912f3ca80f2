/** Listing of an output directory (generated/), shared by write and the drift check. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutputFile } from './stages.js';

/** All files below dir, relative, posix separators, sorted. Missing dir = empty. */
export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

export function toBuffer(content: OutputFile['content']): Buffer {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
}

export async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
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

export async function diffOutputs(dir: string, files: readonly OutputFile[], owned: OwnedScope): Promise<DriftReport> {
  const changed: string[] = [];
  const missing: string[] = [];
  const wanted = new Set<string>();
  for (const f of files) {
    wanted.add(f.path);
    const current = await readIfExists(path.join(dir, f.path));
    if (current === null) missing.push(f.path);
    else if (!current.equals(toBuffer(f.content))) changed.push(f.path);
  }
  const stale = (await listFiles(dir)).filter((p) => owned(p) && !wanted.has(p));
  return { changed: changed.sort(), missing: missing.sort(), stale };
}

export function isClean(report: DriftReport): boolean {
  return report.changed.length + report.missing.length + report.stale.length === 0;
}
