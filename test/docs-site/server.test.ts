/** HTTP tests of the docs server: every route, status and header of spec 3A. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import type { LoadedDocsSite } from '../../runtime/docs-site/site.js';
import { createFixture, FIXTURE_FILES, type Fixture } from './fixture.js';

let fixture: Fixture;
let site: LoadedDocsSite;
let app: FastifyInstance;
const sha = (s: string): string => `"${createHash('sha256').update(s).digest('hex')}"`;

beforeAll(async () => {
  fixture = createFixture();
  site = await fixture.load();
  // as `--host 0.0.0.0`: any Host is answered, so the crawler files can be built from other hosts (the Host check: test/hostile/dns-rebinding.test.ts)
  app = await buildDocsServer({ site, settings: defaultDocsSettings({ themeDir: fixture.root }), listenHost: '0.0.0.0' });
});
afterAll(async () => {
  await app.close();
  fixture.cleanup();
});

describe('GET /{path}', () => {
  it.each([
    ['/', 'Welcome | Fixture Docs'],
    ['/index', 'Welcome | Fixture Docs'],
    ['/guide/install', 'Install | Fixture Docs'],
    ['/GUIDE/Install/', 'Install | Fixture Docs'],
    ['/guide/install.md', 'Install | Fixture Docs'],
    ['/mixed/case', 'Mixed Case | Fixture Docs'],
  ])('%s renders the page with an ETag of its HTML', async (url, title) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['etag']).toBe(sha(res.body));
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain(`<title>${title}</title>`);
  });

  it('answers 304 with no body when If-None-Match matches (strong, weak, in a list)', async () => {
    const first = await app.inject({ url: '/guide/install' });
    const etag = String(first.headers['etag']);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await app.inject({ url: '/guide/install', headers: { 'if-none-match': header } });
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers['etag']).toBe(etag);
    }
    const stale = await app.inject({ url: '/guide/install', headers: { 'if-none-match': '"stale"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('answers an unknown path with the rendered 404 page', async () => {
    const res = await app.inject({ url: '/no/such/page' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<title>Page not found | Fixture Docs</title>');
    expect(res.body).toContain('<h1>Page not found</h1>');
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/guide/install' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it('escapes raw HTML from Markdown', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(res.body).not.toContain('<script>alert');
  });

  it('renders sidebar, breadcrumbs, prev/next, outline, controls and the footer', async () => {
    const res = await app.inject({ url: '/guide/install' });
    expect(res.body).toContain('<a href="/guide/install" aria-current="page">Install</a>');
    expect(res.body).not.toContain('not-written-yet');
    expect(res.body).toContain('<ol><li><a href="/">Home</a></li><li>Guide</li><li aria-current="page">Install</li></ol>');
    expect(res.body).toContain('<a class="pager-prev" rel="prev" href="/index">');
    expect(res.body).toContain('<a class="pager-next" rel="next" href="/guide/configure">');
    expect(res.body).toContain('<a class="control" href="/raw/guide/install.md?view=true">View as Markdown</a>');
    expect(res.body).toContain('<link rel="alternate" type="application/rss+xml" title="Fixture Docs" href="/feed.xml">');
    expect(res.body).toContain('<meta name="x-test" content="a&quot;b">');
    expect(res.body).toContain(`<link rel="icon" href="data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">🚀</text></svg>')}">`);
    expect(res.body).toContain('<p>Made with <strong>care</strong>.</p>');
    expect(res.body).toContain('Last updated: <time datetime="2026-02-01T00:00:00.000Z">2026-02-01</time>');
    expect(res.body).toContain('<span class="line"><span style="color:#D73A49;--shiki-dark:#F97583">const</span>');
    const home = await app.inject({ url: '/' });
    expect(home.body).toContain('<li class="toc-h2"><a href="#next-steps">Next steps</a></li>');
    expect(home.body).toContain('<a href="/guide/install">install</a>');
  });

  it('sends the built-in strict CSP and security headers on pages', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('GET /raw/{path}', () => {
  it.each([
    ['/raw/guide/install', 'text/markdown; charset=utf-8', 'attachment; filename="install.md"'],
    ['/raw/GUIDE/Install.md', 'text/markdown; charset=utf-8', 'attachment; filename="install.md"'],
    ['/raw/guide/install?view=true', 'text/plain; charset=utf-8', 'inline; filename="install.md"'],
  ])('%s', async (url, type, disposition) => {
    const res = await app.inject({ url, remoteAddress: '10.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-disposition']).toBe(disposition);
    expect(res.body).toBe(FIXTURE_FILES['guide/install.md']);
  });

  it('answers an unknown raw path with 404 and an empty body', async () => {
    const res = await app.inject({ url: '/raw/nope', remoteAddress: '10.0.0.2' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('');
  });
});

describe('GET /api/search', () => {
  it.each([['/api/search'], ['/api/search?q='], ['/api/search?q=a'], ['/api/search?q=%20z%20']])('%s returns []', async (url) => {
    const res = await app.inject({ url, remoteAddress: '10.0.1.1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('returns ranked results with path, title, description and excerpt', async () => {
    const res = await app.inject({ url: '/api/search?q=stripes', remoteAddress: '10.0.1.2' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual([
      {
        path: '/zebra',
        title: 'Zebra',
        description: 'Stripes everywhere. The word gateway appears in the body only.',
        excerpt: '<mark>Stripes</mark> everywhere. The word gateway appears in the body only.',
      },
    ]);
    expect(res.headers['x-total-count']).toBe('1');
  });

  it('limits results (default 20, at most 100) and counts all matches in X-Total-Count', async () => {
    const limited = await app.inject({ url: '/api/search?q=gateway&limit=1', remoteAddress: '10.0.1.4' });
    expect(limited.headers['x-total-count']).toBe('2');
    expect((limited.json() as { path: string }[]).map((r) => r.path)).toEqual(['/mixed/case']);
    const all = await app.inject({ url: '/api/search?q=gateway&limit=500', remoteAddress: '10.0.1.4' });
    expect((all.json() as { path: string }[]).map((r) => r.path)).toEqual(['/mixed/case', '/zebra']);
  });

  it.each([['0'], ['-3'], ['abc'], ['1.5']])('limit=%s is a 400 with the error body', async (limit) => {
    const res = await app.inject({ url: `/api/search?q=gateway&limit=${limit}`, remoteAddress: '10.0.1.5' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'limit must be a whole number from 1 to 100' });
  });

  it('ranks a keyword hit above body hits and matches prefixes', async () => {
    const keyword = (await app.inject({ url: '/api/search?q=tuning', remoteAddress: '10.0.1.3' })).json() as { path: string }[];
    expect(keyword.map((r) => r.path)).toEqual(['/guide/configure']);
    const prefix = (await app.inject({ url: '/api/search?q=instal', remoteAddress: '10.0.1.3' })).json() as { path: string }[];
    expect(prefix[0]?.path).toBe('/guide/install');
  });
});

describe('GET /api/pages', () => {
  it('lists every page with path, title, description and lastModified', async () => {
    const res = await app.inject({ url: '/api/pages', remoteAddress: '10.0.3.1' });
    expect(res.statusCode).toBe(200);
    expect((res.json() as unknown[])[0]).toEqual({ path: '/guide/configure', title: 'Configure', description: 'Settings and options.', lastModified: '2026-03-01T00:00:00.000Z' });
    expect(res.json()).toHaveLength(5);
  });
});

describe('GET /api/build-version', () => {
  it('returns {version} and is not cached', async () => {
    const res = await app.inject({ url: '/api/build-version' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ version: 1 });
  });
});

describe('crawler files', () => {
  it('feed.xml is RSS 2.0 with pages newest first, links from the request host', async () => {
    const res = await app.inject({ url: '/feed.xml', headers: { host: 'docs.example.com' }, remoteAddress: '10.0.2.1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.body).toContain('<rss version="2.0"');
    expect(res.body).toContain('<title>Fixture Docs</title>');
    expect(res.body).toContain('<description>Docs used by the tests.</description>');
    const titles = [...res.body.matchAll(/<item>\s*<title><!\[CDATA\[(.*?)\]\]><\/title>/g)].map((m) => m[1]);
    expect(titles).toEqual(['Zebra', 'Configure', 'Install', 'Welcome', 'Mixed Case']);
    expect(res.body).toContain('<link>http://docs.example.com/zebra</link>');
  });

  it('sitemap.xml lists every page with lastmod', async () => {
    const res = await app.inject({ url: '/sitemap.xml', headers: { host: 'docs.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body).toContain('<url><loc>http://docs.example.com/</loc><lastmod>2026-01-01</lastmod><priority>1.0</priority></url>');
    expect(res.body).toContain('<url><loc>http://docs.example.com/zebra</loc><lastmod>2026-04-01</lastmod><priority>0.8</priority></url>');
    expect(res.body.match(/<url>/g)).toHaveLength(5);
  });

  it('robots.txt names the sitemap on the request host', async () => {
    const res = await app.inject({ url: '/robots.txt', headers: { host: 'docs.example.com:8080' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('User-agent: *\nAllow: /\nSitemap: http://docs.example.com:8080/sitemap.xml\n');
  });

  it('llms.txt lists every page with title, URL and description', async () => {
    const res = await app.inject({ url: '/llms.txt', headers: { host: 'docs.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      [
        '# Fixture Docs',
        '',
        '> Docs used by the tests.',
        '',
        '- [Configure](http://docs.example.com/guide/configure): Settings and options.',
        '- [Install](http://docs.example.com/guide/install): Run the installer.',
        '- [Welcome](http://docs.example.com/): Start here.',
        '- [Mixed Case](http://docs.example.com/mixed/case): This page title says gateway too: no, only the body.',
        '- [Zebra](http://docs.example.com/zebra): Stripes everywhere. The word gateway appears in the body only.',
        '',
      ].join('\n'),
    );
  });
});

describe('rate limit: 30 requests per minute per IP on raw, search, feed', () => {
  it('answers the 31st request with 429 and Retry-After, per IP, shared, and resets next minute', async () => {
    let now = 1_000_000 * 60_000 + 5_000;
    const limitedApp = await buildDocsServer({ site, settings: defaultDocsSettings({ themeDir: fixture.root }), now: () => now });
    const urls = ['/api/search?q=zebra', '/raw/zebra', '/feed.xml'];
    for (let i = 0; i < 30; i++) {
      const res = await limitedApp.inject({ url: urls[i % 3] ?? '/feed.xml', remoteAddress: '192.0.2.1' });
      expect(res.statusCode).toBe(200);
    }
    for (const url of urls) {
      const res = await limitedApp.inject({ url, remoteAddress: '192.0.2.1' });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('55');
      expect(res.body).toBe('');
    }
    expect((await limitedApp.inject({ url: '/raw/zebra', remoteAddress: '192.0.2.2' })).statusCode).toBe(200);
    expect((await limitedApp.inject({ url: '/api/build-version', remoteAddress: '192.0.2.1' })).statusCode).toBe(200);
    expect((await limitedApp.inject({ url: '/zebra', remoteAddress: '192.0.2.1' })).statusCode).toBe(200);
    now += 60_000;
    expect((await limitedApp.inject({ url: '/raw/zebra', remoteAddress: '192.0.2.1' })).statusCode).toBe(200);
    await limitedApp.close();
  });
});

describe('BasePath and ContentSecurityPolicy settings', () => {
  it('prefixes every internal link, asset and API call and serves under the prefix only', async () => {
    const based = await buildDocsServer({
      site,
      settings: defaultDocsSettings({ basePath: '/docs/', themeDir: fixture.root, contentSecurityPolicy: "default-src 'none'" }),
      listenHost: '0.0.0.0',
    });
    const res = await based.inject({ url: '/docs/guide/install' });
    expect(res.statusCode).toBe(200);
    const refs = [...res.body.matchAll(/(?:href|src)="(\/[^"]*)"/g)].map((m) => m[1] ?? '');
    expect(refs.length).toBeGreaterThan(10);
    expect(refs.filter((r) => !r.startsWith('/docs/'))).toEqual([]);
    expect(res.body).toContain('data-base="/docs"');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    expect((await based.inject({ url: '/docs' })).statusCode).toBe(200);
    expect((await based.inject({ url: '/guide/install' })).statusCode).toBe(404);
    expect((await based.inject({ url: '/docs/api/search?q=zebra' })).json()).toHaveLength(1);
    expect((await based.inject({ url: '/docs/robots.txt', headers: { host: 'h.example' } })).body).toContain('Sitemap: http://h.example/docs/sitemap.xml');
    await based.close();
  });

  it('serves Docs:DefaultPage at / and makes it the sitemap root', async () => {
    const other = await buildDocsServer({ site, settings: defaultDocsSettings({ defaultPage: 'zebra', themeDir: fixture.root }), listenHost: '0.0.0.0' });
    expect((await other.inject({ url: '/' })).body).toContain('<title>Zebra | Fixture Docs</title>');
    expect((await other.inject({ url: '/sitemap.xml', headers: { host: 'h' } })).body).toContain('<url><loc>http://h/</loc><lastmod>2026-04-01</lastmod><priority>1.0</priority></url>');
    await other.close();
  });

  it('takes the public origin from config.json baseUrl when no --base-url is set', async () => {
    const withBaseUrl = createFixture({ ...FIXTURE_FILES, 'config.json': JSON.stringify({ title: 'B', baseUrl: 'https://from-config.example/' }) });
    const configured = await buildDocsServer({ site: await withBaseUrl.load(), settings: defaultDocsSettings({ themeDir: fixture.root }) });
    expect((await configured.inject({ url: '/robots.txt' })).body).toBe('User-agent: *\nAllow: /\nSitemap: https://from-config.example/sitemap.xml\n');
    await configured.close();
    withBaseUrl.cleanup();
  });

  it('uses the public base URL instead of the request host when set', async () => {
    const public_ = await buildDocsServer({ site, settings: defaultDocsSettings({ baseUrl: 'https://docs.wharf.dev', themeDir: fixture.root }) });
    expect((await public_.inject({ url: '/robots.txt' })).body).toBe('User-agent: *\nAllow: /\nSitemap: https://docs.wharf.dev/sitemap.xml\n');
    await public_.close();
  });
});

describe('assets', () => {
  it.each([
    ['/_wharf/docs.css', 'text/css; charset=utf-8'],
    ['/_wharf/client.js', 'text/javascript; charset=utf-8'],
    ['/_wharf/search.js', 'text/javascript; charset=utf-8'],
    ['/_wharf/mermaid.js', 'text/javascript; charset=utf-8'],
    ['/_wharf/katex/katex.min.css', 'text/css; charset=utf-8'],
    ['/_wharf/katex/fonts/KaTeX_Main-Regular.woff2', 'font/woff2'],
    ['/_wharf/search-index.json', 'application/json; charset=utf-8'],
  ])('%s', async (url, type) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.body.length).toBeGreaterThan(100);
  });
});
