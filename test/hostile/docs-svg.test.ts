/**
 * An SVG in the docs folder, opened on its own (a link to it, or its URL typed), is a document in the
 * docs origin: its script or a form in a `<foreignObject>` acted as the site. The server already
 * refused its script (`default-src 'none'`); it now also sandboxes it (an opaque origin, no forms, no
 * top navigation), and the same file shown as `<img>` in a page still draws. Headless Chromium
 * against the docs server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser } from 'playwright-core';
import { closeChromium, launchChromium } from '../setup/chromium.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from '../docs-site/fixture.js';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="teal"/>' +
  "<script>document.documentElement.setAttribute('data-ran', 'yes')</script></svg>";

let fixture: Fixture;
let app: FastifyInstance;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  fixture = createFixture({ 'config.json': JSON.stringify({ title: 'Svg' }), 'index.md': '# Home\n\n![badge](./img/badge.svg)\n' });
  mkdirSync(join(fixture.docs, 'img'));
  writeFileSync(join(fixture.docs, 'img', 'badge.svg'), SVG);
  app = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings({ themeDir: fixture.root }) });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await closeChromium(browser);
  await app?.close();
  fixture?.cleanup();
});

it('an SVG opened directly runs no script and is not in the docs origin', async () => {
  const page = await browser.newPage();
  try {
    const response = await page.goto(`${origin}/img/badge.svg`);
    expect(response?.status()).toBe(200);
    expect(await page.evaluate(() => [window.origin, document.documentElement.getAttribute('data-ran')])).toEqual(['null', null]);
  } finally {
    await page.close();
  }
});

it('the same SVG shown as <img> in a page still draws', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    const img = page.locator('article img[alt="badge"]');
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth)).toBe(40);
  } finally {
    await page.close();
  }
});
