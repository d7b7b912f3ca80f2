/**
 * Internal links: `[x](./other.md#part)` and `[x](/guide/intro.md)` become root-relative page
 * URLs (`/other#part`), lower-cased like page paths. The server prefixes BasePath later.
 * Links to `.md` files that are not pages, and images whose file is not in the docs folder
 * (checked when `env.knownAssets` is given), are recorded in `env.problems` with their line.
 * Relative image sources and links to assets (`./img/a.png`) become root-relative (`/img/a.png`).
 */
import type { MarkdownIt } from 'markdown-it';
import { posix } from 'node:path';
import { docsPathKey } from '../../../runtime/contract/docs-site.js';
import { isAssetFile, pagePathOf, type DocsRenderEnv } from './env.js';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function resolveDocLink(href: string, fromFile: string): string | null {
  if (href === '' || href.startsWith('#') || href.startsWith('//') || SCHEME.test(href)) return null;
  const hashAt = href.indexOf('#');
  const target = hashAt >= 0 ? href.slice(0, hashAt) : href;
  const hash = hashAt >= 0 ? href.slice(hashAt) : '';
  if (!/\.md$/i.test(target)) return null;
  const joined = target.startsWith('/') ? target.slice(1) : posix.join(posix.dirname(fromFile), target);
  const normal = posix.normalize(joined);
  if (normal.startsWith('..')) return null;
  return '/' + pagePathOf(normal) + hash;
}

/** `./img/a.png` from `guide/x.md` -> `/guide/img/a.png`; null for absolute URLs, anchors and non-assets. */
export function resolveAssetLink(href: string, fromFile: string): string | null {
  if (href === '' || href.startsWith('#') || href.startsWith('/') || SCHEME.test(href)) return null;
  const target = href.split(/[?#]/)[0] ?? '';
  if (!isAssetFile(target)) return null;
  const normal = posix.normalize(posix.join(posix.dirname(fromFile), href));
  return normal.startsWith('..') ? null : '/' + normal;
}

export function linksPlugin(md: MarkdownIt): void {
  md.core.ruler.push('wharf_links', (state) => {
    const env = state.env as Partial<DocsRenderEnv>;
    for (const block of state.tokens) {
      const line = block.map ? block.map[0] + 1 : 0;
      for (const token of block.children ?? []) {
        if (token.type === 'image' || token.type === 'link_open') {
          const attrName = token.type === 'image' ? 'src' : 'href';
          const value = token.attrGet(attrName);
          const asset = value === null || !env.file ? null : resolveAssetLink(String(value), env.file);
          if (asset !== null) token.attrSet(attrName, asset);
          const local = asset ?? (value !== null && String(value).startsWith('/') && !String(value).startsWith('//') ? String(value) : null);
          if (token.type === 'image' && local !== null && env.knownAssets) {
            const key = docsPathKey(decodeURI(local.slice(1).split(/[?#]/)[0] ?? ''));
            if (!env.knownAssets.has(key)) env.problems?.push({ code: 'docs-missing-image', line, message: `image ${String(value)} is not in the docs folder` });
          }
        }
        if (token.type !== 'link_open') continue;
        const attr = token.attrGet('href');
        if (attr === null || !env.file) continue;
        const href = String(attr);
        const resolved = resolveDocLink(href, env.file);
        if (resolved === null) continue;
        token.attrSet('href', resolved);
        const page = resolved.slice(1).split('#')[0] ?? '';
        if (env.knownPages && env.knownPages.size > 0 && !env.knownPages.has(page)) {
          env.problems?.push({ code: 'docs-broken-link', line, message: `link ${href} does not point at a page` });
        }
      }
    }
  });
}
