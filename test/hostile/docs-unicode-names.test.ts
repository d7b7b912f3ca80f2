/**
 * Page files named outside printable ASCII, in the headers that carry their names.
 * `/raw/{path}` names the download after the page file. A page file named outside printable ASCII
 * (`日本語.md`, `café.md`) or with a quote made the `Content-Disposition` header invalid: Node
 * refused it and the route answered 500 (characters above U+00FF), sent Latin-1 mojibake, or let
 * the quote end the filename early. The name now goes out as RFC 6266 / RFC 8187 (`filename` in
 * ASCII with `_` for the rest, the exact name in `filename*`).
 * A front matter `redirect` to such a page (or any target with a space or non-ASCII character) made
 * the 307's `Location` invalid the same way (500, or Latin-1 bytes); it is now percent-encoded
 * (UTF-8), escapes already in the target kept.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from '../docs-site/fixture.js';

let fixture: Fixture;
let app: FastifyInstance;

beforeAll(async () => {
  fixture = createFixture({
    'index.md': '# Home\n',
    '日本語.md': '# 日本語\n\nテキスト\n',
    'café.md': '# Café\n',
    'say "hi".md': '# Quote\n',
    'moved.md': '---\nredirect: ./日本語.md#top\n---\n# Moved\n',
    'moved-latin.md': '---\nredirect: ./café.md\n---\n# Moved\n',
    'moved-away.md': '---\nredirect: https://example.org/a b/ü?x=%20y\n---\n# Moved\n',
  });
  app = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings({ themeDir: fixture.root }) });
});
afterAll(async () => {
  await app?.close();
  fixture?.cleanup();
});

it.each([
  ['/raw/日本語', '', 'attachment; filename="___.md"; filename*=UTF-8\'\'%E6%97%A5%E6%9C%AC%E8%AA%9E.md'],
  ['/raw/日本語', '?view=true', 'inline; filename="___.md"; filename*=UTF-8\'\'%E6%97%A5%E6%9C%AC%E8%AA%9E.md'],
  ['/raw/café', '', 'attachment; filename="caf_.md"; filename*=UTF-8\'\'caf%C3%A9.md'],
  ['/raw/say "hi"', '', 'attachment; filename="say _hi_.md"; filename*=UTF-8\'\'say%20%22hi%22.md'],
  ['/raw/index', '?view=true', 'inline; filename="index.md"'],
])('%s%s is served with Content-Disposition %s', async (path, query, disposition) => {
  const res = await app.inject({ url: encodeURI(path) + query });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-disposition']).toBe(disposition);
});

it.each([
  ['/moved', '/%E6%97%A5%E6%9C%AC%E8%AA%9E#top'],
  ['/moved-latin', '/caf%C3%A9'],
  ['/moved-away', 'https://example.org/a%20b/%C3%BC?x=%20y'],
])('%s redirects to %s', async (url, location) => {
  const res = await app.inject({ url });
  expect([res.statusCode, res.headers['location']]).toEqual([307, location]);
});
