/**
 * Front matter `redirect`: the page answers 307 with this target. An absolute URL (`https://…`,
 * `//host/…`) stays as it is; `/guide/new.md` and `./new.md` (relative to the page's folder)
 * become root-relative page URLs like internal links (`/guide/new`); the server adds BasePath.
 * Null when a relative target climbs out of the docs folder.
 */
import { posix } from 'node:path';
import { pagePathOf } from './plugins/env.js';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function resolveRedirect(target: string, fromFile: string): string | null {
  if (SCHEME.test(target) || target.startsWith('//')) return target;
  const cut = target.search(/[?#]/);
  const path = cut >= 0 ? target.slice(0, cut) : target;
  const suffix = cut >= 0 ? target.slice(cut) : '';
  const joined = path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(fromFile), path);
  const normal = posix.normalize(joined === '' ? '.' : joined).replace(/\/+$/, '');
  if (normal.startsWith('..')) return null;
  return '/' + (normal === '.' ? '' : pagePathOf(normal)) + suffix;
}
