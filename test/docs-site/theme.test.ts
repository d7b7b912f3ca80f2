/** Themes: Docs:Themes or wwwroot/theme/theme.json (never merged), custom.css/js, CustomCssUrl, DarkMode, ShowScrollIndicator. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings, type DocsSettings } from '../../runtime/docs-site/settings.js';
import type { LoadedDocsSite } from '../../runtime/docs-site/site.js';
import { createFixture, type Fixture } from './fixture.js';

let fixture: Fixture;
let site: LoadedDocsSite;
let themeDir: string;
let emptyDir: string;

beforeAll(async () => {
  fixture = createFixture({ 'index.md': '# Home\n\nHello.\n' });
  site = await fixture.load();
  themeDir = mkdtempSync(join(tmpdir(), 'wharf-theme-'));
  emptyDir = join(themeDir, 'empty');
  mkdirSync(emptyDir);
  writeFileSync(join(themeDir, 'theme.json'), JSON.stringify({ primaryColor: '#123456', brandText: 'From Json', darkMode: false }));
  writeFileSync(join(themeDir, 'custom.css'), 'body { outline: 0; }');
  writeFileSync(join(themeDir, 'custom.js'), 'console.log("custom");');
});
afterAll(() => {
  fixture.cleanup();
  rmSync(themeDir, { recursive: true, force: true });
});

async function get(settings: Partial<DocsSettings>, url: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const app = await buildDocsServer({ site, settings: defaultDocsSettings(settings) });
  const res = await app.inject({ url });
  await app.close();
  return { status: res.statusCode, body: res.body, headers: res.headers };
}

describe('themes', () => {
  it('maps Docs:Themes options to CSS variables in /_wharf/theme.css', async () => {
    const themes = { PrimaryColor: '#ff0000', BgColor: '#fafafa', FontMono: 'Fira Code, monospace', BorderColor: 'red;}body{x' };
    const css = await get({ themes, themeDir: emptyDir }, '/_wharf/theme.css');
    expect(css.body).toBe(':root {\n  --primary-color: #ff0000;\n  --bg-color: #fafafa;\n  --font-mono: Fira Code, monospace;\n}\n');
    const page = await get({ themes, themeDir: emptyDir }, '/');
    expect(page.body).toContain('<link rel="stylesheet" href="/_wharf/docs.css">\n<link rel="stylesheet" href="/_wharf/theme.css">');
  });

  it('uses theme.json only when Docs:Themes is absent, without merging', async () => {
    const fromJson = await get({ themes: null, themeDir }, '/');
    expect(fromJson.body).toContain('<span>From Json</span>');
    expect(fromJson.body).not.toContain('id="theme-toggle"');
    expect((await get({ themes: null, themeDir }, '/_wharf/theme.css')).body).toBe(':root {\n  --primary-color: #123456;\n}\n');
    const fromSettings = await get({ themes: { TextColor: '#111111' }, themeDir }, '/');
    expect(fromSettings.body).not.toContain('From Json');
    expect(fromSettings.body).toContain('id="theme-toggle"');
    expect((await get({ themes: { TextColor: '#111111' }, themeDir }, '/_wharf/theme.css')).body).toBe(':root {\n  --text-color: #111111;\n}\n');
  });

  it('loads custom.css after the built-in styles and custom.js before </body>', async () => {
    const page = await get({ themes: {}, themeDir }, '/');
    expect(page.body).toMatch(/docs\.css">\n<link rel="stylesheet" href="\/theme\/custom\.css">/);
    expect(page.body).toMatch(/<script src="\/theme\/custom\.js"><\/script>\n<\/body>/);
    expect((await get({ themes: {}, themeDir }, '/theme/custom.css')).body).toBe('body { outline: 0; }');
    expect((await get({ themes: {}, themeDir }, '/theme/custom.js')).body).toBe('console.log("custom");');
    expect((await get({ themes: {}, themeDir: emptyDir }, '/theme/custom.js')).status).toBe(404);
  });

  it('lets CustomCssUrl replace custom.css and allows its origin in the CSP', async () => {
    const page = await get({ themes: { CustomCssUrl: 'https://cdn.example.com/x.css' }, themeDir }, '/');
    expect(page.body).toContain('<link rel="stylesheet" href="https://cdn.example.com/x.css">');
    expect(page.body).not.toContain('/theme/custom.css');
    expect(String(page.headers['content-security-policy'])).toContain("style-src 'self' 'unsafe-inline' https://cdn.example.com;");
  });

  it('hides the scroll indicator and dark-mode toggle when turned off', async () => {
    const on = await get({ themes: {}, themeDir: emptyDir }, '/');
    expect(on.body).toContain('id="scroll-indicator"');
    expect(on.body).toContain('data-dark-mode="true"');
    const off = await get({ themes: { ShowScrollIndicator: 'false', DarkMode: false }, themeDir: emptyDir }, '/');
    expect(off.body).not.toContain('id="scroll-indicator"');
    expect(off.body).toContain('data-dark-mode="false"');
  });

  it('falls back to Docs:Themes:BrandText when the site file has neither brand nor title', async () => {
    const page = await get({ themes: { BrandText: 'Themed Brand' }, themeDir: emptyDir }, '/');
    expect(page.body).toContain('<a class="brand" href="/"><span>Themed Brand</span></a>');
    expect(page.body).toContain('<title>Home</title>');
  });

  it.each([
    ['ocean', true],
    ['sepia', true],
    ['default', false],
    ['no-such-theme', false],
  ])('built-in theme %s links its stylesheet after docs.css: %s', async (name, linked) => {
    const page = await get({ builtInTheme: name, themeDir: emptyDir }, '/');
    expect(page.body.includes(`<link rel="stylesheet" href="/_wharf/docs.css">\n<link rel="stylesheet" href="/_wharf/themes/${name}.css">`)).toBe(linked);
    if (linked) {
      const css = await get({ builtInTheme: name, themeDir: emptyDir }, `/_wharf/themes/${name}.css`);
      expect([css.status, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
      expect(css.body).toContain('html[data-theme="dark"] {');
    }
  });
});
