/** Static export: a tree a plain file server can serve, every internal link resolving to a file. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { exportDocsSite } from '../../runtime/docs-site/export.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from './fixture.js';

let fixture: Fixture;
let out: string;
let files: string[];
let fileServer: FastifyInstance;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(out, path).split('\\').join('/')];
  });
}

beforeAll(async () => {
  fixture = createFixture();
  out = mkdtempSync(join(tmpdir(), 'wharf-export-'));
  await exportDocsSite(await fixture.load(), defaultDocsSettings({ basePath: '/docs', baseUrl: 'https://example.org', themeDir: fixture.root }), out);
  files = walk(out).sort();
  fileServer = Fastify();
  await fileServer.register(fastifyStatic, { root: out, prefix: '/docs/', redirect: true });
});
afterAll(async () => {
  await fileServer.close();
  fixture.cleanup();
  rmSync(out, { recursive: true, force: true });
});

describe('docs export', () => {
  it('writes every page, raw file, crawler file and asset', () => {
    expect(files).toEqual([
      '404.html',
      '_wharf/client.js',
      '_wharf/docs.css',
      '_wharf/search-index.json',
      '_wharf/search.js',
      '_wharf/themes/ocean.css',
      '_wharf/themes/sepia.css',
      'feed.xml',
      'guide/configure/index.html',
      'guide/install/index.html',
      'index.html',
      'index/index.html',
      'llms.txt',
      'mixed/case/index.html',
      'raw/guide/configure.md',
      'raw/guide/install.md',
      'raw/index.md',
      'raw/mixed/case.md',
      'raw/zebra.md',
      'robots.txt',
      'sitemap.xml',
      'zebra/index.html',
    ]);
  });

  it('renders pages in static mode with absolute URLs from --base-url', () => {
    expect(readFileSync(join(out, 'zebra/index.html'), 'utf8')).toContain('data-mode="static"');
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toBe('User-agent: *\nAllow: /\nSitemap: https://example.org/docs/sitemap.xml\n');
    expect(readFileSync(join(out, 'feed.xml'), 'utf8')).toContain('<link>https://example.org/docs/zebra</link>');
  });

  it('has no internal link or asset reference without a file behind it', () => {
    const missing: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.html'))) {
      const html = readFileSync(join(out, file), 'utf8');
      for (const [, ref] of html.matchAll(/(?:href|src)="(\/[^"#?]*)/g)) {
        const path = (ref ?? '').replace(/^\/docs/, '').replace(/^\/+|\/+$/g, '');
        const target = path === '' ? 'index.html' : existsSync(join(out, path)) && statSync(join(out, path)).isFile() ? path : `${path}/index.html`;
        if (!existsSync(join(out, target))) missing.push(`${file} -> ${ref}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each([
    ['/docs/', 200, '<title>Welcome | Fixture Docs</title>'],
    ['/docs/guide/install/', 200, '<title>Install | Fixture Docs</title>'],
    ['/docs/raw/guide/install.md', 200, 'Run the installer.'],
    ['/docs/_wharf/search-index.json', 200, '"v":2,"docs":[{"path":"guide/configure"'],
    ['/docs/llms.txt', 200, '- [Zebra](https://example.org/docs/zebra)'],
  ])('a plain file server serves %s', async (url, status, text) => {
    const res = await fileServer.inject({ url });
    expect(res.statusCode).toBe(status);
    expect(res.body).toContain(text);
  });

  it('a plain file server redirects /docs/zebra to the folder index', async () => {
    const res = await fileServer.inject({ url: '/docs/zebra' });
    expect(res.statusCode).toBe(301);
    expect(res.headers['location']).toBe('/docs/zebra/');
  });
});

describe('docs export of folder index pages', () => {
  it('writes guide/index.md both as /guide/index/ and /guide/', async () => {
    const small = createFixture({ 'index.md': '# Home\n', 'guide/index.md': '# Guide\n' });
    const dir = mkdtempSync(join(tmpdir(), 'wharf-export-index-'));
    await exportDocsSite(await small.load(), defaultDocsSettings({ themeDir: small.root }), dir);
    expect(readFileSync(join(dir, 'guide', 'index.html'), 'utf8')).toContain('<title>Guide</title>');
    expect(readFileSync(join(dir, 'guide', 'index', 'index.html'), 'utf8')).toContain('<title>Guide</title>');
    small.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('docs export of redirect pages', () => {
  it('writes an HTML refresh to the target (base path applied, escaped)', async () => {
    const small = createFixture({ 'index.md': '# Home\n', 'old.md': '---\nredirect: ./index.md#a"b\n---\n# Old\n' });
    const dir = mkdtempSync(join(tmpdir(), 'wharf-export-redirect-'));
    await exportDocsSite(await small.load(), defaultDocsSettings({ basePath: '/docs', themeDir: small.root }), dir);
    expect(readFileSync(join(dir, 'old', 'index.html'), 'utf8')).toBe(
      '<!doctype html>\n<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=/docs/index#a&quot;b"><link rel="canonical" href="/docs/index#a&quot;b"><meta name="robots" content="noindex"><title>Moved</title></head><body><a href="/docs/index#a&quot;b">This page has moved.</a></body></html>\n',
    );
    expect(readFileSync(join(dir, 'sitemap.xml'), 'utf8')).not.toContain('old');
    // No page has math or a diagram: neither KaTeX nor Mermaid is written.
    expect([existsSync(join(dir, '_wharf', 'mermaid.js')), existsSync(join(dir, '_wharf', 'katex'))]).toEqual([false, false]);
    small.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('docs export of math and diagram assets', () => {
  it('writes KaTeX (stylesheet and fonts) and Mermaid only when a page uses them', async () => {
    const small = createFixture({ 'index.md': '# Home\n\n$x^2$\n' });
    const dir = mkdtempSync(join(tmpdir(), 'wharf-export-math-'));
    await exportDocsSite(await small.load(), defaultDocsSettings({ themeDir: small.root }), dir);
    expect(existsSync(join(dir, '_wharf', 'katex', 'katex.min.css'))).toBe(true);
    expect(existsSync(join(dir, '_wharf', 'katex', 'fonts', 'KaTeX_Main-Regular.woff2'))).toBe(true);
    expect(existsSync(join(dir, '_wharf', 'mermaid.js'))).toBe(false);
    small.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });
});
