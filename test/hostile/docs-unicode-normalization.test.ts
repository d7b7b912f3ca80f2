/**
 * One file name, two Unicode spellings: `café.md` composed (NFC, `é` = U+00E9, as Windows and
 * Linux editors write it) or decomposed (NFD, `e` + U+0301, as macOS hands it over and as a git
 * checkout made there keeps it). The page path was the file name's bytes: an NFD file was only
 * found at its NFD URL (the NFC URL a person types or a link writes was 404), a link written NFC to
 * an NFD file was a broken link, and both files side by side became two pages with the same
 * title at two URLs. Page and asset paths are now compared in NFC (docsPathKey): one page,
 * served at either spelling; two files that differ only in the form are a build error, like two
 * that differ only in case.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildDocsSite } from '../../compiler/docs-site/index.js';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from '../docs-site/fixture.js';

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';
/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('a page file named in NFD', () => {
  let fixture: Fixture;
  let app: FastifyInstance;

  beforeAll(async () => {
    fixture = createFixture({
      'index.md': `# Home\n\nSee [the café page](./${NFC}.md).\n`,
      [`${NFD}.md`]: '# Café\n\ncoffee-page-text\n',
      [`Gu\u0308ide/${NFD}.md`]: '# Nested Café\n',
    });
    writeFileSync(join(fixture.docs, `photo-${NFD}.png`), PNG);
    app = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings({ themeDir: fixture.root }), rateLimitPerMinute: null });
  });
  afterAll(async () => {
    await app?.close();
    fixture?.cleanup();
  });

  it.each([
    ['NFC', `/${NFC}`],
    ['NFD', `/${NFD}`],
    ['NFC, upper case', `/${NFC.toUpperCase()}`],
    ['NFD, with .md', `/${NFD}.md`],
  ])('is served at its %s spelling (%s), the same page', async (_form, path) => {
    const nfc = await app.inject({ url: encodeURI(`/${NFC}`) });
    const res = await app.inject({ url: encodeURI(path) });
    expect([res.statusCode, res.headers['etag']]).toEqual([200, nfc.headers['etag']]);
    expect(res.body).toContain('coffee-page-text');
  });

  it.each([`/G\u00fcide/${NFC}`, `/Gu\u0308ide/${NFD}`, `/gu\u0308ide/${NFC}`])('a folder in NFD too: %s', async (path) => {
    const res = await app.inject({ url: encodeURI(path) });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Nested Café');
  });

  it.each([`/raw/${NFC}`, `/raw/${NFD}`])('%s serves the Markdown', async (path) => {
    const res = await app.inject({ url: encodeURI(path) });
    expect([res.statusCode, res.body]).toEqual([200, '# Café\n\ncoffee-page-text\n']);
  });

  it('links, the sidebar and the page index use the one NFC URL', async () => {
    const home = (await app.inject({ url: '/' })).body;
    expect(home).toContain(`<a href="/${NFC}">Café</a>`); // sidebar
    expect(home).toContain('<a href="/caf%c3%a9">the café page</a>'); // markdown-it percent-encodes link targets (UTF-8 of NFC)
    expect(home).not.toContain(NFD);
    expect(home).not.toContain('cafe%cc%81');
    expect((await app.inject({ url: '/caf%c3%a9' })).body).toContain('coffee-page-text');
    const pages = (await app.inject({ url: '/api/pages' })).json() as { path: string }[];
    expect(pages.map((p) => p.path).sort()).toEqual([`/${NFC}`, `/g\u00fcide/${NFC}`, '/index']);
  });

  it.each([`/photo-${NFC}.png`, `/photo-${NFD}.png`])('the NFD image file is served at %s', async (path) => {
    const res = await app.inject({ url: encodeURI(path) });
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'image/png']);
  });
});

it('two files whose names differ only in the Unicode form are a build error naming both', async () => {
  const fixture = createFixture({ 'index.md': '# Home\n', [`${NFC}.md`]: '# Composed\n', [`${NFD}.md`]: '# Decomposed\n' });
  try {
    const result = await buildDocsSite({ root: fixture.root });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.code, d.message])).toEqual([
      ['docs-duplicate-page', `${NFC}.md and ${NFD}.md both map to the page path /${NFC} (paths are case-insensitive and compared in Unicode NFC)`],
    ]);
  } finally {
    fixture.cleanup();
  }
});
