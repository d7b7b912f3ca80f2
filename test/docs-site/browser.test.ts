/**
 * Browser test in headless Chromium (Debian's /usr/bin/chromium via playwright-core): open a page,
 * follow next/prev, search, toggle dark mode, screenshot to test-results/docs-site.png; then the
 * static export's client-side search. Never skipped: without Chromium the run stops in the global setup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { type Browser } from 'playwright-core';
import { closeChromium, launchChromium } from '../setup/chromium.js';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { exportDocsSite } from '../../runtime/docs-site/export.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { loadDocsSite } from '../../runtime/docs-site/site.js';
import { buildDocsSite } from '../../compiler/docs-site/index.js';
import { createFixture, type Fixture } from './fixture.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const themeColours = new Map<string, string>();

describe('docs site in headless Chromium', () => {
  let fixture: Fixture;
  let app: FastifyInstance;
  let staticServer: FastifyInstance;
  let browser: Browser;
  let origin: string;
  let staticOrigin: string;
  let exportDir: string;

  beforeAll(async () => {
    fixture = createFixture();
    const site = await fixture.load();
    app = await buildDocsServer({ site, settings: defaultDocsSettings({ basePath: '/docs', themeDir: fixture.root }) });
    origin = await app.listen({ port: 0, host: '127.0.0.1' });
    exportDir = mkdtempSync(join(tmpdir(), 'wharf-export-browser-'));
    await exportDocsSite(site, defaultDocsSettings({ themeDir: fixture.root }), exportDir);
    staticServer = Fastify();
    await staticServer.register(fastifyStatic, { root: exportDir, redirect: true });
    staticOrigin = await staticServer.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await closeChromium(browser);
    await app?.close();
    await staticServer?.close();
    fixture?.cleanup();
    if (exportDir) rmSync(exportDir, { recursive: true, force: true });
  });

  it('navigates with next/prev, searches, toggles dark mode, without CSP errors', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/docs/guide/install`);
    expect(await page.title()).toBe('Install | Fixture Docs');
    await page.click('a.pager-next');
    await page.waitForURL(`${origin}/docs/guide/configure`);
    expect(await page.textContent('article h1')).toContain('Configure');
    await page.click('a.pager-prev');
    await page.waitForURL(`${origin}/docs/guide/install`);

    await page.fill('#search-input', 'stripes');
    await page.waitForSelector('#search-results a');
    expect(await page.textContent('#search-results a strong')).toBe('Zebra');
    expect(await page.innerHTML('#search-results a .search-excerpt')).toBe('<mark>Stripes</mark> everywhere. The word gateway appears in the body only.');

    const before = await page.getAttribute('html', 'data-theme');
    await page.click('#theme-toggle');
    const after = await page.getAttribute('html', 'data-theme');
    expect([before, after].sort()).toEqual(['dark', 'light']);
    await page.click('#theme-toggle');
    await page.click('#theme-toggle');
    expect(await page.getAttribute('html', 'data-theme')).toBe(after);

    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/docs-site.png', fullPage: true });

    await page.press('#search-input', 'Enter');
    await page.waitForURL(`${origin}/docs/zebra`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reloads an open page when the content changes (hot reload polling)', async () => {
    const live = createFixture();
    const server = await buildDocsServer({
      site: await live.load(),
      settings: defaultDocsSettings({ enableHotReload: true, rootPath: live.docs, themeDir: live.root }),
      rebuild: () => live.load(),
    });
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    const page = await browser.newPage();
    try {
      await page.goto(`${url}/zebra`);
      live.write('zebra.md', '# Zebra\n\nLive edit arrived.\n');
      await page.waitForSelector('text=Live edit arrived.', { timeout: 15_000 });
    } finally {
      await page.close();
      await server.close();
      live.cleanup();
    }
  });

  it('draws a Mermaid diagram and shows KaTeX math under the strict CSP with a nonce', async () => {
    const diagrams = createFixture({
      'config.json': JSON.stringify({ title: 'D', favicon: '⚓', head: [{ tag: 'script', attrs: {}, content: 'document.documentElement.dataset.inline = "ran";' }] }),
      'index.md': '# Flow\n\nEnergy $E = mc^2$.\n\n```mermaid\nflowchart LR\n  A[Build] --> B[Serve]\n```\n',
    });
    const server = await buildDocsServer({ site: await diagrams.load(), settings: defaultDocsSettings({ themeDir: diagrams.root }) });
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(url);
      await page.waitForSelector('pre.mermaid svg', { timeout: 20_000 });
      const labels = await page.$$eval('pre.mermaid svg .nodeLabel', (nodes) => nodes.map((n) => n.textContent));
      expect(labels.sort()).toEqual(['Build', 'Serve']);
      // KaTeX: rendered at build time; the stylesheet's fonts load from our own origin.
      expect(await page.textContent('.katex-mathml annotation')).toBe('E = mc^2');
      expect(await page.evaluate(() => document.fonts.check('16px KaTeX_Main'))).toBe(true);
      // The inline head script ran: its nonce matched the policy of this response.
      expect(await page.getAttribute('html', 'data-inline')).toBe('ran');
      await page.click('#theme-toggle');
      await page.waitForSelector('pre.mermaid svg');
      await page.screenshot({ path: 'test-results/docs-site-diagram.png', fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await server.close();
      diagrams.cleanup();
    }
  });

  it.each(['default', 'ocean', 'sepia'])('theme %s: every text passes the WCAG AA contrast check (axe) in light and dark mode', async (name) => {
    const server = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings({ builtInTheme: name, themeDir: fixture.root }) });
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    // bypassCSP only so that axe can be injected; the CSP itself is checked by the other tests.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    try {
      const colours: Record<string, string> = {};
      for (const mode of ['light', 'dark']) {
        await page.goto(`${url}/guide/install`);
        if ((await page.getAttribute('html', 'data-theme')) !== mode) await page.click('#theme-toggle');
        expect(await page.getAttribute('html', 'data-theme')).toBe(mode);
        await page.fill('#search-input', 'installer');
        await page.waitForSelector('#search-results mark');
        await page.addScriptTag({ content: AXE });
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: { target: string[]; any: { message: string }[] }[] }[] }> } }).axe;
          const result = await axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] } });
          return result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.any[0]?.message ?? v.id}`));
        });
        expect([name, mode, violations]).toEqual([name, mode, []]);
        colours[mode] = await page.evaluate(() => getComputedStyle(document.body).backgroundColor + ' ' + getComputedStyle(document.querySelector('a.pager-next') as Element).color);
      }
      expect(colours['light']).not.toBe(colours['dark']);
      themeColours.set(name, colours['light'] ?? '');
    } finally {
      await context.close();
      await server.close();
    }
  });

  it('the three built-in themes look different', () => {
    expect(new Set(themeColours.values()).size).toBe(3);
  });

  it("our own docs: /diagrams redirects to the math and diagrams page, which shows KaTeX and a drawn diagram", async () => {
    const own = await buildDocsServer({ site: await loadDocsSite((await buildDocsSite({ root: process.cwd() })).files), settings: defaultDocsSettings({ themeDir: fixture.root }) });
    const url = await own.listen({ port: 0, host: '127.0.0.1' });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${url}/diagrams`);
      await page.waitForURL(`${url}/math-and-diagrams#diagrams`);
      await page.waitForSelector('pre.mermaid svg', { timeout: 20_000 });
      expect(await page.$$eval('pre.mermaid svg .nodeLabel', (nodes) => nodes.map((n) => n.textContent))).toContain('wharf docs serve');
      expect(await page.locator('.katex-display').count()).toBe(1);
      expect(await page.locator('.katex').count()).toBeGreaterThan(3);
      await page.screenshot({ path: 'test-results/docs-site-own-math.png', fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await own.close();
    }
  });

  it('searches the static export in the browser over the prebuilt index', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${staticOrigin}/guide/install/`);
    await page.fill('#search-input', 'tuning');
    await page.waitForSelector('#search-results a');
    expect(await page.textContent('#search-results a strong')).toBe('Configure');
    // The browser runs the same engine over the same index: same order and excerpts as the server.
    await page.fill('#search-input', 'gateway');
    await page.waitForSelector('#search-results a >> nth=1');
    const server = (await app.inject({ url: '/docs/api/search?q=gateway' })).json() as { title: string; excerpt: string }[];
    const shown = await page.$$eval('#search-results a', (links) => links.map((a) => [a.querySelector('strong')?.textContent, a.querySelector('.search-excerpt')?.innerHTML]));
    expect(shown).toEqual(server.map((r) => [r.title, r.excerpt]));
    await page.fill('#search-input', 'tuning');
    await page.waitForFunction(() => document.querySelector('#search-results a strong')?.textContent === 'Configure');
    await page.click('#search-results a');
    await page.waitForURL(/\/guide\/configure\/?$/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
