/**
 * Page files whose names hold a character with a meaning in URLs (`c#.md`, `50%.md`, `what?.md`,
 * `a b.md`, `back\slash.md`). The server finds them at their percent-encoded path, but every link
 * Wharf wrote to them was the raw name: the sidebar's `/c#` opened the start page, `/what?` was
 * `/what` (404), `/50%` was a 400, `back\slash` became `back/slash` in a browser; the sitemap, feed,
 * llms.txt, search results and /api/pages gave the same broken URLs, and the static export stopped
 * on them. Links now percent-encode `%`, `#`, `?`, `\` and white space (other characters stay as
 * they are).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { exportDocsSite } from '../../runtime/docs-site/export.js';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import type { LoadedDocsSite } from '../../runtime/docs-site/site.js';
import { createFixture, type Fixture } from '../docs-site/fixture.js';

const PAGES: [file: string, title: string, url: string][] = [
  ['c#.md', 'Sharp', '/c%23'],
  ['50%.md', 'Fifty', '/50%25'],
  ['what?.md', 'Question', '/what%3F'],
  ['a b.md', 'Spaced', '/a%20b'],
  ['back\\slash.md', 'Backslash', '/back%5Cslash'],
];

let fixture: Fixture;
let site: LoadedDocsSite;
let app: FastifyInstance;

beforeAll(async () => {
  fixture = createFixture({
    'config.json': JSON.stringify({ title: 'Names', pageControls: { downloadMarkdown: true } }),
    'index.md': '---\ntitle: Home\n---\n# Home\n',
    ...Object.fromEntries(PAGES.map(([file, title]) => [file, `---\ntitle: ${title}\ndescription: The ${title.toLowerCase()} page.\n---\n# ${title}\n\nunusualword\n`])),
  });
  site = await fixture.load();
  app = await buildDocsServer({ site, settings: defaultDocsSettings({ themeDir: fixture.root }), rateLimitPerMinute: null });
});
afterAll(async () => {
  await app?.close();
  fixture?.cleanup();
});

it.each(PAGES)('%s (%s): the sidebar links its encoded URL, which serves the page, marked current there', async (_file, title, url) => {
  const home = await app.inject({ url: '/' });
  expect(home.body).toContain(`<a href="${url}">${title}</a>`);
  const page = await app.inject({ url });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain(`<title>${title} | Names</title>`);
  expect(page.body).toContain(`<a href="${url}" aria-current="page">${title}</a>`);
  expect(page.body).toContain(`href="/raw${url}.md"`);
  expect((await app.inject({ url: `/raw${url}.md` })).statusCode).toBe(200);
});

it('the sitemap, llms.txt, feed, search and /api/pages give the encoded URLs', async () => {
  const sitemap = (await app.inject({ url: '/sitemap.xml' })).body;
  const llms = (await app.inject({ url: '/llms.txt' })).body;
  const feed = (await app.inject({ url: '/feed.xml' })).body;
  const search = (await app.inject({ url: '/api/search?q=unusualword&limit=100' })).json() as { path: string }[];
  const pages = (await app.inject({ url: '/api/pages' })).json() as { path: string }[];
  for (const [, title, url] of PAGES) {
    expect(sitemap).toContain(`<loc>http://localhost:80${url}</loc>`);
    expect(llms).toContain(`- [${title}](http://localhost:80${url})`);
    // the feed library writes the URL normalized (no default port)
    expect(feed).toContain(`<link>http://localhost${url}</link>`);
    expect(search.map((r) => r.path)).toContain(url);
    expect(pages.map((p) => p.path)).toContain(url);
  }
});

it('the static export writes every page', async () => {
  const out = mkdtempSync(join(tmpdir(), 'wharf-names-export-'));
  try {
    await exportDocsSite(site, defaultDocsSettings({ themeDir: fixture.root }), out);
    expect(readdirSync(out)).toEqual(expect.arrayContaining(['c#', '50%', 'what?', 'a b', 'back\\slash']));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
