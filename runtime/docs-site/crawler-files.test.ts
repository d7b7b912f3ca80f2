import { describe, expect, it } from 'vitest';
import type { DocsPageMeta, DocsSiteConfig } from '../contract/docs-site.js';
import { FEED_SIZE, newestPages, renderFeed, renderSitemap, type PublicSite } from './crawler-files.js';

const meta = (i: number, layout = 'doc'): DocsPageMeta => ({
  path: `p${String(i).padStart(2, '0')}`, file: `p${i}.md`, title: `Page ${i}`, description: `About ${i} & more`, metaDescription: null, keywords: [],
  lastModified: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(), layout, redirect: null, uses: { math: false, mermaid: false }, sourceHash: '', sidebar: 0,
});
const config = { title: 'T', description: 'D', lang: 'en' } as DocsSiteConfig;
const site = (pages: DocsPageMeta[]): PublicSite => ({ config, pages, brand: 'T', root: 'https://x.dev/docs', defaultPage: 'p00' });

describe('feed', () => {
  it('holds the 20 most recently modified pages, newest first, without home layouts', () => {
    const pages = [...Array.from({ length: 25 }, (_, i) => meta(i)), meta(99, 'home')];
    const newest = newestPages(pages, FEED_SIZE);
    expect(newest.map((p) => p.path)).toEqual(Array.from({ length: 20 }, (_, i) => `p${String(24 - i).padStart(2, '0')}`));
    const xml = renderFeed(site(pages));
    expect(xml.match(/<item>/g)).toHaveLength(20);
    expect(xml).toContain('<link>https://x.dev/docs/p24</link>');
    expect(xml).not.toContain('p99');
    expect(xml).toContain('<lastBuildDate>Sun, 25 Jan 2026 00:00:00 GMT</lastBuildDate>');
  });
});

describe('sitemap', () => {
  it('escapes and dates every page; the default page is the root URL', () => {
    expect(renderSitemap(site([meta(0), meta(1)]))).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '  <url><loc>https://x.dev/docs/</loc><lastmod>2026-01-01</lastmod><priority>1.0</priority></url>\n' +
        '  <url><loc>https://x.dev/docs/p01</loc><lastmod>2026-01-02</lastmod><priority>0.8</priority></url>\n</urlset>\n',
    );
  });

  it('leaves lastmod out for a page whose date is unknown', () => {
    expect(renderSitemap(site([{ ...meta(0), lastModified: '' }]))).toContain(
      '<url><loc>https://x.dev/docs/</loc><priority>1.0</priority></url>',
    );
  });
});
