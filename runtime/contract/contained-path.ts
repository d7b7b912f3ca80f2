/** Relative paths that must stay inside a folder (Static ContentFile, Files BaseDirectory): the build normalizes and checks them, the runtime checks a loaded generated/ with the same function. */
import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * The normalized posix form of `p`, or null when it is absolute or leaves its folder
 * (`..` after normalization). Backslashes count as separators.
 */
export function containedPath(p: string): string | null {
  const posix = p.replace(/\\/g, '/');
  if (posix.startsWith('/') || /^[A-Za-z]:/.test(posix)) return null;
  const normalized = path.posix.normalize(posix);
  if (normalized === '..' || normalized.startsWith('../')) return null;
  return normalized.replace(/\/$/, '');
}

function isWithin(folder: string, candidate: string): boolean {
  const inside = path.relative(folder, candidate);
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${path.sep}`) && !path.isAbsolute(inside);
}

/**
 * Whether `relative` under `folder`, with every symbolic link on the way followed, is still inside
 * `folder` (its real path): a link committed as `data.csv -> /etc/passwd` or
 * `-> ../../../../environments/prod/settings.json` passes the textual check of containedPath.
 * False when either does not exist.
 */
export function resolvesInside(folder: string, relative: string): boolean {
  try {
    return isWithin(realpathSync(folder), realpathSync(path.join(folder, relative)));
  } catch {
    return false;
  }
}
