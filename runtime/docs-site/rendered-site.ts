/**
 * Everything the server answers with, precomputed when a site is loaded or swapped in:
 * each page's full HTML with its ETag (SHA-256 of the HTML), raw Markdown, the 404 page.
 * When the site file's head has an inline script, the HTML holds a nonce placeholder that the
 * server fills per response; the ETag is then the SHA-256 of the HTML before that.
 */
import { createHash } from 'node:crypto';
import type { LoadedDocsSite } from './site.js';
import { pageUrlPath } from '../contract/docs-search.js';
import { docsPathKey } from '../contract/docs-site.js';
import { escapeHtml } from './escape.js';
import { notFoundFragment, renderDocument, type LayoutContext } from './layout.js';

export interface RenderedPage {
  readonly path: string;
  /** Front matter redirect, BasePath applied to a root-relative target, percent-encoded for the header; null when none. */
  readonly redirect: string | null;
  readonly html: string;
  readonly etag: string;
  readonly raw: string;
  readonly rawEtag: string;
}

export interface RenderedAsset {
  readonly contentType: string;
  readonly body: Buffer;
  readonly etag: string;
}

export interface RenderedSite {
  readonly source: LoadedDocsSite;
  readonly assets: ReadonlyMap<string, RenderedAsset>;
  readonly pages: ReadonlyMap<string, RenderedPage>;
  readonly notFoundHtml: string;
}

export const etagOf = (body: string | Buffer): string => `"${createHash('sha256').update(body).digest('hex')}"`;

/** The sidebar's link to this page (written by the compiler as `href="${e('/' + pageUrlPath(path))}"`), marked current. */
function markActive(sidebar: string, path: string): string {
  const href = escapeHtml(`/${pageUrlPath(path)}`);
  return sidebar.replace(`<a href="${href}">`, `<a href="${href}" aria-current="page">`);
}

/**
 * A `Location` value: characters a header cannot carry (space, controls, anything outside ASCII)
 * percent-encoded as UTF-8, escapes already there kept. Node refuses a header above U+00FF (the
 * redirect answered 500) and sends U+0080..U+00FF as Latin-1 bytes.
 */
function headerSafeUrl(url: string): string {
  return url.replace(/[^\x21-\x7e]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate (a YAML escape): U+FFFD
    }
  });
}

function redirectTarget(target: string | null, basePath: string): string | null {
  if (target === null) return null;
  return headerSafeUrl(target.startsWith('/') && !target.startsWith('//') ? basePath + target : target);
}

export function renderSite(site: LoadedDocsSite, ctx: LayoutContext, defaultPage: string): RenderedSite {
  const pages = new Map<string, RenderedPage>();
  for (const [path, page] of site.pages) {
    const html = renderDocument(ctx, {
      title: page.meta.title,
      description: page.meta.metaDescription,
      sidebar: markActive(site.sidebars[page.meta.sidebar] ?? '', path),
      fragment: page.fragment,
      uses: page.meta.uses,
    });
    pages.set(path, { path, redirect: redirectTarget(page.meta.redirect, ctx.basePath), html, etag: etagOf(html), raw: page.raw, rawEtag: etagOf(page.raw) });
  }
  const home = site.pages.get(defaultPage);
  const notFoundHtml = renderDocument(ctx, {
    title: 'Page not found',
    description: null,
    sidebar: site.sidebars[home?.meta.sidebar ?? site.sidebars.length - 1] ?? '',
    fragment: notFoundFragment(),
  });
  const assets = new Map([...site.assets].map(([key, a]) => [key, { contentType: a.contentType, body: a.body, etag: etagOf(a.body) }]));
  return { source: site, assets, pages, notFoundHtml };
}

/** Request path -> page path: decoded, trimmed of slashes and `.md`/`.html`, NFC and lower-cased (docsPathKey); '' is the default page. */
export function pagePathOfRequest(raw: string, defaultPage: string): string {
  const p = docsPathKey(raw.replace(/^\/+|\/+$/g, '').replace(/\.(md|html)$/i, ''));
  return p === '' ? defaultPage : p;
}

export function findPage(site: RenderedSite, path: string): RenderedPage | undefined {
  return site.pages.get(path) ?? site.pages.get(`${path}/index`) ?? (path.endsWith('/index') ? site.pages.get(path.slice(0, -6)) : undefined);
}

/** True when an If-None-Match header names the ETag (weak or strong) or is `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
