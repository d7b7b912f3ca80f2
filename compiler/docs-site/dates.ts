/**
 * When each page last changed (spec 3A: the file's last write time). Front matter `updated`/`date`
 * (see page-source.ts) wins. A file that differs from its committed version (edited, not yet
 * committed) or is not in git at all: its write time. An unmodified committed file: the last
 * commit touching it (`git log`, one process for the whole folder), because a fresh clone's file
 * times all say "the clone", not when the page changed.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';

/** Map of file (relative to docsDir, posix) to ISO date of its last commit; empty outside git. */
export function gitDates(docsDirAbs: string): Map<string, string> {
  const dates = new Map<string, string>();
  let out: string;
  try {
    out = execFileSync('git', ['log', '--format=%x00%cI', '--name-only', '--relative', '--', '.'], {
      cwd: docsDirAbs,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return dates;
  }
  let current: string | null = null;
  for (const line of out.split('\n')) {
    if (line.startsWith('\0')) {
      current = new Date(line.slice(1).trim()).toISOString();
    } else if (line.trim() !== '' && current !== null && !dates.has(line.trim())) {
      dates.set(line.trim(), current);
    }
  }
  return dates;
}

/**
 * Files (relative to docsDir, posix) whose content differs from the last commit, staged or not
 * (`git diff HEAD`, which compares content: a file only touched is not listed); empty outside git.
 */
export function gitModified(docsDirAbs: string): Set<string> {
  try {
    const out = execFileSync('git', ['diff', '--name-only', '-z', '--relative', 'HEAD', '--', '.'], {
      cwd: docsDirAbs,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return new Set(out.split('\0').filter((f) => f !== ''));
  } catch {
    return new Set();
  }
}

export function pageDate(
  file: string,
  docsDirAbs: string,
  frontMatterDate: string | null,
  git: ReadonlyMap<string, string>,
  modified: ReadonlySet<string> = new Set(),
): string {
  if (frontMatterDate) return frontMatterDate;
  const committed = modified.has(file) ? undefined : git.get(file);
  if (committed) return committed;
  try {
    return statSync(join(docsDirAbs, file)).mtime.toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}
