/**
 * When each page last changed. generated/ is committed and must be byte-stable across clones,
 * so the order is: front matter `updated`/`date` (see page-source.ts), else the last commit
 * touching the file (`git log`, one process for the whole folder), else the file's mtime.
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

export function pageDate(
  file: string,
  docsDirAbs: string,
  frontMatterDate: string | null,
  git: ReadonlyMap<string, string>,
): string {
  if (frontMatterDate) return frontMatterDate;
  const committed = git.get(file);
  if (committed) return committed;
  try {
    return statSync(join(docsDirAbs, file)).mtime.toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}
