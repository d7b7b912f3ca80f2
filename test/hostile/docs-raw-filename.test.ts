/**
 * `/raw/{path}` names the download after the page file. A page file named outside printable ASCII
 * (`日本語.md`, `café.md`) or with a quote made the `Content-Disposition` header invalid: Node
 * refused it and the route answered 500 (characters above U+00FF), sent Latin-1 mojibake, or let
 * the quote end the filename early. The name now goes out as RFC 6266 / RFC 8187 (`filename` in
 * ASCII with `_` for the rest, the exact name in `filename*`).
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
