/**
 * Spec 3A through the docs server: the feed order, the sitemap `lastmod` and the last-updated date
 * follow the file's last write time for a page edited and not yet committed (an unmodified committed
 * page keeps its commit date: a fresh clone's file times say nothing); the site file's
 * `description` is the fallback meta description (front matter wins), not the first paragraph.
 */
import { execFileSync } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from './fixture.js';

const config = { title: 'Handbook', description: 'The handbook of the harbour.', lastUpdated: true, baseUrl: 'https://docs.example' };

let fixture: Fixture;
let app: FastifyInstance;

function git(args: readonly string[], date?: string): void {
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.org', '-c', 'commit.gpgsign=false', ...args], {
    cwd: fixture.root,
    stdio: 'ignore',
    env: { ...process.env, ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) },
  });
}

beforeAll(async () => {
  fixture = createFixture({
    'config.json': JSON.stringify(config),
    'index.md': '# Start\n\nThe first paragraph of the start page.\n',
    'edited.md': '# Edited\n\nWritten long ago.\n',
    'touched.md': '# Touched\n\nCommitted and only touched since.\n',
    'own.md': '---\ndescription: A page with its own description.\n---\n# Own\n\nIts first paragraph.\n',
  });
  git(['init', '-q']);
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'docs'], '2020-01-02T03:04:05Z');
  // edited after the commit, not committed: its write time counts
  const edited = join(fixture.docs, 'edited.md');
  writeFileSync(edited, '# Edited\n\nWritten long ago, edited today.\n');
  utimesSync(edited, new Date('2026-06-07T08:09:10Z'), new Date('2026-06-07T08:09:10Z'));
  // touched (same content): still the commit's date
  const touched = join(fixture.docs, 'touched.md');
  utimesSync(touched, new Date('2026-05-01T00:00:00Z'), new Date('2026-05-01T00:00:00Z'));
  app = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings({ themeDir: fixture.root }) });
});
afterAll(async () => {
  await app?.close();
  fixture?.cleanup();
});

describe('page dates', () => {
  it('a page edited and not committed leads the feed with its write time', async () => {
    const feed = (await app.inject({ url: '/feed.xml' })).body;
    const links = [...feed.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((m) => m[1]);
    expect(links[0]).toBe('https://docs.example/edited');
    expect(feed).toContain('<pubDate>Sun, 07 Jun 2026 08:09:10 GMT</pubDate>');
  });

  it('the sitemap: the write time for the edited page, the commit date for the others (touched or not)', async () => {
    const sitemap = (await app.inject({ url: '/sitemap.xml' })).body;
    expect(sitemap).toContain('<loc>https://docs.example/edited</loc><lastmod>2026-06-07</lastmod>');
    expect(sitemap).toContain('<loc>https://docs.example/touched</loc><lastmod>2020-01-02</lastmod>');
    expect(sitemap).toContain('<loc>https://docs.example/</loc><lastmod>2020-01-02</lastmod>');
  });

  it('the page shows its write time as last updated', async () => {
    const { body } = await app.inject({ url: '/edited' });
    expect(body).toContain('Last updated: <time datetime="2026-06-07T08:09:10.000Z">2026-06-07</time>');
  });
});

describe('meta description', () => {
  it("without front matter it is the site file's description, not the first paragraph", async () => {
    const { body } = await app.inject({ url: '/edited' });
    expect(body).toContain('<meta name="description" content="The handbook of the harbour.">');
    expect(body).not.toContain('<meta name="description" content="Written long ago');
  });

  it("front matter wins over the site file's", async () => {
    const { body } = await app.inject({ url: '/own' });
    expect(body).toContain('<meta name="description" content="A page with its own description.">');
  });
});
