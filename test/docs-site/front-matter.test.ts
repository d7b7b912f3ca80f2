/**
 * Per-page front matter through the running server: `redirect` (307, left out of the sitemap,
 * feed, llms.txt, /api/pages and search), `layout: home` (hero and features), `pagination`,
 * `toc`, `lastUpdated`; and HEAD answered on every route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from './fixture.js';

const FILES = {
  'config.json': JSON.stringify({ title: 'FM', lastUpdated: true, nav: [{ title: 'Home', path: 'index' }, { title: 'A', path: 'guide/a' }, { title: 'B', path: 'guide/b' }] }),
  'index.md': [
    '---',
    'layout: home',
    'hero:',
    '  name: Wharf <b>',
    '  tagline: Declarative gateway',
    '  actions:',
    '    - {text: Get started, link: /guide/a}',
    '    - {text: Source, link: "https://github.com/example/wharf", theme: alt}',
    'features:',
    '  - {title: Fast, details: Builds in a second, icon: ⚡}',
    '---',
    'Welcome text.',
    '',
  ].join('\n'),
  'guide/a.md': '---\ntitle: A\ndate: 2026-01-02\n---\n# A\n\n## Part one\n\nText about kestrels.\n',
  'guide/b.md': '---\ntitle: B\ndate: 2026-01-03\npagination: false\ntoc: false\nlastUpdated: false\n---\n# B\n\n## Part\n\nMore.\n',
  'guide/old.md': '---\ntitle: Old kestrels\nredirect: ./a.md#part-one\n---\n# Old\n\nkestrels\n',
  'moved.md': '---\nredirect: https://example.org/elsewhere\n---\n# Moved\n',
};

let fixture: Fixture;
let app: FastifyInstance;
beforeAll(async () => {
  fixture = createFixture(FILES);
  app = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings({ basePath: '/docs', themeDir: fixture.root }) });
});
afterAll(async () => {
  await app.close();
  fixture.cleanup();
});

describe('front matter redirect', () => {
  it.each([
    ['/docs/guide/old', '/docs/guide/a#part-one'],
    ['/docs/Guide/Old.md', '/docs/guide/a#part-one'],
    ['/docs/moved', 'https://example.org/elsewhere'],
  ])('%s answers 307 to %s', async (url, location) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode).toBe(307);
      expect(res.headers['location']).toBe(location);
      expect(res.body).toBe('');
    }
  });

  it('leaves redirects out of the sitemap, llms.txt, /api/pages and search', async () => {
    const sitemap = (await app.inject({ url: '/docs/sitemap.xml' })).body;
    expect(sitemap).toContain('/docs/guide/a</loc>');
    expect(sitemap).not.toContain('old');
    expect(sitemap).not.toContain('moved');
    expect((await app.inject({ url: '/docs/llms.txt' })).body).not.toContain('Old');
    expect(((await app.inject({ url: '/docs/api/pages' })).json() as { path: string }[]).map((p) => p.path)).toEqual(['/guide/a', '/guide/b', '/index']);
    expect(((await app.inject({ url: '/docs/api/search?q=kestrels' })).json() as { path: string }[]).map((p) => p.path)).toEqual(['/guide/a']);
  });
});

describe('layout and per-page switches', () => {
  it('renders the home hero and features, escaped, without breadcrumbs', async () => {
    const html = (await app.inject({ url: '/docs/' })).body;
    expect(html).toContain(
      '<section class="hero"><h1 class="hero-name">Wharf &lt;b&gt;</h1><p class="hero-tagline">Declarative gateway</p><div class="hero-actions">' +
        '<a class="hero-action brand" href="/docs/guide/a">Get started</a><a class="hero-action alt" href="https://github.com/example/wharf" target="_blank" rel="noopener noreferrer">Source</a></div></section>',
    );
    expect(html).toContain('<section class="features"><div class="feature"><span class="feature-icon" aria-hidden="true">⚡</span><h2>Fast</h2><p>Builds in a second</p></div></section>');
    expect(html).toContain('<main class="content home" id="main">');
    expect(html).not.toContain('class="breadcrumbs"');
  });

  it.each([
    ['/docs/guide/a', { pager: true, toc: true, updated: true }],
    ['/docs/guide/b', { pager: false, toc: false, updated: false }],
  ])('%s: pagination, toc and lastUpdated follow the front matter', async (url, want) => {
    const html = (await app.inject({ url })).body;
    expect({ pager: html.includes('class="pager"'), toc: html.includes('class="toc"'), updated: html.includes('class="last-updated"') }).toEqual(want);
  });
});

describe('HEAD', () => {
  it.each([
    ['/docs/', 200],
    ['/docs/guide/a', 200],
    ['/docs/nope', 404],
    ['/docs/raw/guide/a', 200],
    ['/docs/api/search?q=kestrels', 200],
    ['/docs/api/build-version', 200],
    ['/docs/api/pages', 200],
    ['/docs/feed.xml', 200],
    ['/docs/sitemap.xml', 200],
    ['/docs/robots.txt', 200],
    ['/docs/llms.txt', 200],
    ['/docs/_wharf/docs.css', 200],
    ['/docs/_wharf/search-index.json', 200],
  ])('HEAD %s answers %i with the GET headers and no body', async (url, status) => {
    const get = await app.inject({ url, remoteAddress: '10.9.0.1' });
    const head = await app.inject({ method: 'HEAD', url, remoteAddress: '10.9.0.2' });
    expect([head.statusCode, get.statusCode]).toEqual([status, status]);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.body).toBe('');
  });
});
