/** Relative paths that must stay inside a folder (Static ContentFile, Files BaseDirectory). */
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
