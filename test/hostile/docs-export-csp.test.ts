/**
 * The static export's pages carry the docs site's Content-Security-Policy themselves. The server
 * sends it as a header, but `wharf docs export` wrote the pages for a plain file server, which
 * sends none: every page of the export ran without a policy, so anything that got markup into a
 * page (an inline event handler, a `javascript:` URL, a script from another origin) ran on the
 * docs origin, although docs/docs-site.md says pages carry the policy. Now each exported HTML page
 * has it as `<meta http-equiv="Content-Security-Policy">` (without `frame-ancestors`, which a meta
 * policy cannot carry), with the same nonce as the page's inline head script.
 * Checked in headless Chromium against the exported files served by a plain static server.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { type Browser } from 'playwright-core';
import { closeChromium, launchChromium } from '../setup/chromium.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportDocsSite } from '../../runtime/docs-site/export.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from '../docs-site/fixture.js';

let fixture: Fixture;
let dir: string;
let files: FastifyInstance;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  fixture = createFixture({
    'config.json': JSON.stringify({ title: 'Policy', head: [{ tag: 'script', content: "document.documentElement.setAttribute('data-head-script', 'ran');" }] }),
    'index.md': '---\ntitle: Home\n---\n# Home\n\nSee the [guide](./guide.md).\n',
    'guide.md': '---\ntitle: Guide\n---\n# Guide\n',
  });
  dir = mkdtempSync(join(tmpdir(), 'wharf-export-csp-'));
  await exportDocsSite(await fixture.load(), defaultDocsSettings({ themeDir: fixture.root }), dir);
  files = Fastify();
  await files.register(fastifyStatic, { root: dir, redirect: true });
  origin = await files.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await closeChromium(browser);
  await files?.close();
  fixture?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it.each(['index.html', 'guide/index.html', '404.html'])('%s carries the policy as a meta tag, first thing after the charset', (file) => {
  const html = readFileSync(join(dir, file), 'utf8');
  const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
  expect(nonce).toBeTruthy();
  const meta = /<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  expect(meta?.[1]?.replace(/&#39;/g, "'")).toBe(
    `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; ` +
      "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'",
  );
});

it('in Chromium the exported page runs its own scripts and refuses injected inline script', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`script: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  // the browser's own /favicon.ico (the site names none) is the only file the export lacks
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico') problems.push(`answer: ${r.status()} ${r.url()}`);
  });
  try {
    await page.goto(`${origin}/`);
    // the site's own script file and its nonce'd head script ran, nothing was refused
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-head-script'))).toBe('ran');
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toMatch(/^(light|dark)$/);
    expect(problems).toEqual([]);
    // markup that got into the page: its inline handler and javascript: link do not run
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.setAttribute('onerror', "document.title = 'INJECTED'");
      img.src = 'data:,not-an-image';
      document.body.append(img);
      const a = document.createElement('a');
      a.id = 'injected-link';
      a.href = "javascript:document.title='INJECTED'";
      a.textContent = 'click';
      document.body.append(a);
    });
    await page.click('#injected-link');
    await page.waitForTimeout(300);
    expect(await page.title()).toBe('Home | Policy');
    expect(problems.some((p) => /Content Security Policy/i.test(p))).toBe(true);
  } finally {
    await page.close();
  }
});
