/**
 * Links the docs site writes from `config.json` (topNav, nav/sidebar, socialLinks, editLink) and from
 * front matter (hero actions, redirect) with a scheme that runs script or opens the reader's files:
 * `javascript:`, `vbscript:`, `data:`, `file:`, also written as a browser still reads them
 * (`JavaScript:`, a tab inside, a leading space or control character). Markdown links never could
 * (markdown-it refuses them); these were written into `href` as they were, so a page author's
 * `javascript:` link ran on the docs origin when clicked in the static export (no CSP there) or
 * under a `Docs:ContentSecurityPolicy` that allows inline script. Now each one is a
 * `docs-unsafe-link` error naming the file and field, and the link is left out.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { buildDocsSite } from '../../compiler/docs-site/index.js';
import { exportDocsSite } from '../../runtime/docs-site/export.js';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { loadDocsSite } from '../../runtime/docs-site/site.js';
import { createFixture, type Fixture } from '../docs-site/fixture.js';

const HOSTILE: readonly string[] = [
  'javascript:alert(document.domain)',
  'JavaScript:alert(1)',
  'java\tscript:alert(1)',
  ' javascript:alert(1)',
  '\u0001javascript:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
];

/** [where, files with the link, file named by the diagnostic, JSON pointer] */
const PLACES: readonly [string, (link: string) => Record<string, string>, string, string][] = [
  ['config topNav link', (link) => ({ 'config.json': JSON.stringify({ topNav: [{ text: 'Evil', link }] }) }), 'docs/config.json', '/topNav/0/link'],
  ['config nested topNav link', (link) => ({ 'config.json': JSON.stringify({ topNav: [{ text: 'Menu', items: [{ text: 'Evil', link }] }] }) }), 'docs/config.json', '/topNav/0/items/0/link'],
  ['config nav path', (link) => ({ 'config.json': JSON.stringify({ nav: [{ title: 'Home', path: 'index' }, { title: 'Evil', path: link }] }) }), 'docs/config.json', '/nav/1/path'],
  ['config sidebar path', (link) => ({ 'config.json': JSON.stringify({ sidebar: { '/': [{ title: 'Group', items: [{ title: 'Evil', path: link }] }] } }) }), 'docs/config.json', '/sidebar/~1/0/items/0/path'],
  ['config socialLinks url', (link) => ({ 'config.json': JSON.stringify({ socialLinks: [{ icon: 'evil', url: link }] }) }), 'docs/config.json', '/socialLinks/0/url'],
  ['config editLink pattern', (link) => ({ 'config.json': JSON.stringify({ editLink: { pattern: `${link}//:path` }, pageControls: { editLink: {} } }) }), 'docs/config.json', '/editLink/pattern'],
  ['front matter hero action', (link) => ({ 'index.md': `---\nlayout: home\nhero:\n  name: Home\n  actions:\n    - text: Start\n      link: /guide\n    - text: Evil\n      link: ${JSON.stringify(link)}\n---\n` }), 'docs/index.md', '/hero/actions/1/link'],
  ['front matter redirect', (link) => ({ 'moved.md': `---\nredirect: ${JSON.stringify(link)}\n---\n# Moved\n` }), 'docs/moved.md', '/redirect'],
];

const CASES = PLACES.flatMap(([where, files, file, pointer]) => HOSTILE.map((link) => [where, JSON.stringify(link), files(link), file, pointer] as const));

const BASE = { 'index.md': '---\ntitle: Home\n---\n# Home\n', 'guide.md': '---\ntitle: Guide\n---\n# Guide\n' };

/** Every href and refresh target of a served or exported HTML text, as a browser reads it. */
function linkTargets(html: string): string[] {
  const decode = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const values = [...html.matchAll(/\bhref="([^"]*)"|content="\d+;\s*url=([^"]*)"/gi)].map((m) => decode(m[1] ?? m[2] ?? ''));
  return values.map((v) => v.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+/, '').toLowerCase());
}
const refused = (target: string): boolean => /^(javascript|vbscript|data|file):/.test(target);

function exportedHtml(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...exportedHtml(path));
    else if (name.endsWith('.html')) out.push(readFileSync(path, 'utf8'));
  }
  return out;
}

let fixture: Fixture | null = null;
let exportDir: string | null = null;
afterEach(() => {
  fixture?.cleanup();
  fixture = null;
  if (exportDir) rmSync(exportDir, { recursive: true, force: true });
  exportDir = null;
});

it.each(CASES)('%s %s: a docs-unsafe-link error, and no page links it (served or exported)', async (_where, _shown, files, file, pointer) => {
  fixture = createFixture({ ...BASE, ...files });
  const result = await buildDocsSite({ root: fixture.root });
  expect(result.diagnostics.filter((d) => d.code === 'docs-unsafe-link').map((d) => [d.severity, d.file, d.pointer])).toEqual([['error', file, pointer]]);

  // what the build wrote anyway (the CLI refuses it; a library caller might not): no such link
  const site = await loadDocsSite(result.files);
  const app = await buildDocsServer({ site, settings: defaultDocsSettings({ themeDir: fixture.root }), rateLimitPerMinute: null });
  try {
    for (const url of ['/', '/guide', '/moved']) {
      const page = await app.inject({ url });
      expect(linkTargets(page.body).filter(refused)).toEqual([]);
      expect(refused(String(page.headers['location'] ?? '').toLowerCase().trim())).toBe(false);
    }
  } finally {
    await app.close();
  }
  exportDir = mkdtempSync(join(tmpdir(), 'wharf-export-links-'));
  await exportDocsSite(site, defaultDocsSettings({ themeDir: fixture.root }), exportDir);
  for (const html of exportedHtml(exportDir)) expect(linkTargets(html).filter(refused)).toEqual([]);
});

it.each([
  ['https://github.com/example/wharf'],
  ['mailto:docs@example.com'],
  ['tel:+4930123456'],
  ['/guide'],
  ['guide'],
  ['#part'],
])('%s stays a link (no diagnostic)', async (link) => {
  fixture = createFixture({
    ...BASE,
    'config.json': JSON.stringify({ topNav: [{ text: 'Out', link }], socialLinks: [{ icon: 'out', url: link }] }),
    'index.md': `---\nlayout: home\nhero:\n  name: Home\n  actions:\n    - text: Out\n      link: ${JSON.stringify(link)}\n---\n`,
  });
  const result = await buildDocsSite({ root: fixture.root });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const site = await loadDocsSite(result.files);
  const app = await buildDocsServer({ site, settings: defaultDocsSettings({ themeDir: fixture.root }), rateLimitPerMinute: null });
  try {
    const body = (await app.inject({ url: '/' })).body;
    expect(body).toContain(`<a href="${link.replace(/&/g, '&amp;')}"`);
    expect(body).toContain('class="social"');
  } finally {
    await app.close();
  }
});
