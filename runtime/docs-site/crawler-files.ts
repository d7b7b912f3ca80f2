/**
 * Files for feed readers and crawlers, built per request from the page metadata because the
 * absolute URLs depend on the public origin (`--base-url`, else the request host):
 * `/feed.xml` (RSS 2.0, 20 most recently modified pages, `layout: home` pages left out),
 * `/sitemap.xml` (every page, lastmod = page date), `/robots.txt`, `/llms.txt`.
 */
import { Feed } from 'feed';
import type { DocsPageMeta, DocsSiteConfig } from '../contract/docs-site.js';
import { escapeHtml as e } from './escape.js';
import { pageUrlPath } from '../contract/docs-search.js';

export interface PublicSite {
  readonly config: DocsSiteConfig;
  readonly pages: readonly DocsPageMeta[];
  readonly brand: string;
  /** origin + BasePath, no trailing slash, e.g. `https://docs.example.com/docs`. */
  readonly root: string;
  readonly defaultPage: string;
}

export const FEED_SIZE = 20;

export function pageUrl(site: PublicSite, path: string): string {
  return path === site.defaultPage ? `${site.root}/` : `${site.root}/${pageUrlPath(path)}`;
}

export function newestPages(pages: readonly DocsPageMeta[], count: number): DocsPageMeta[] {
  return pages
    .filter((p) => p.layout !== 'home')
    .sort((a, b) => (a.lastModified < b.lastModified ? 1 : a.lastModified > b.lastModified ? -1 : a.path < b.path ? -1 : 1))
    .slice(0, count);
}

export function renderFeed(site: PublicSite): string {
  const items = newestPages(site.pages, FEED_SIZE);
  const feed = new Feed({
    title: site.brand,
    description: site.config.description ?? '',
    id: `${site.root}/`,
    link: `${site.root}/`,
    language: site.config.lang,
    feedLinks: { rss: `${site.root}/feed.xml` },
    generator: 'Wharf docs',
    updated: new Date(items[0]?.lastModified || 0),
  });
  for (const page of items) {
    const url = pageUrl(site, page.path);
    feed.addItem({ title: page.title, id: url, link: url, guid: url, description: page.description, date: new Date(page.lastModified || 0) });
  }
  return feed.rss2();
}

export function renderSitemap(site: PublicSite): string {
  const urls = [...site.pages]
    .sort((a, b) => (a.path < b.path ? -1 : 1))
    .map((p) => {
      const priority = p.path === site.defaultPage ? '1.0' : '0.8';
      const lastmod = p.lastModified ? `<lastmod>${p.lastModified.slice(0, 10)}</lastmod>` : '';
      return `  <url><loc>${e(pageUrl(site, p.path))}</loc>${lastmod}<priority>${priority}</priority></url>`;
    });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function renderRobots(site: PublicSite): string {
  return `User-agent: *\nAllow: /\nSitemap: ${site.root}/sitemap.xml\n`;
}

export function renderLlms(site: PublicSite): string {
  const lines = [`# ${site.brand}`, ''];
  if (site.config.description) lines.push(`> ${site.config.description}`, '');
  for (const p of [...site.pages].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    lines.push(`- [${p.title}](${pageUrl(site, p.path)})${p.description ? `: ${p.description.replace(/\s+/g, ' ')}` : ''}`);
  }
  return lines.join('\n') + '\n';
}
