import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocsSite } from './index.js';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'wharf-build-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(root, 'docs', file, '..'), { recursive: true });
    writeFileSync(join(root, 'docs', file), text);
  }
  return root;
}

describe('buildDocsSite', () => {
  it('emits sorted, deterministic files with no absolute paths', async () => {
    const root = tree({ 'index.md': '---\ndate: 2026-01-01\n---\n# Home\n\n[b](./b/page.md)\n', 'b/page.md': '---\ndate: 2026-01-02\n---\n# Page\n' });
    const first = await buildDocsSite({ root });
    const second = await buildDocsSite({ root });
    expect(first.diagnostics).toEqual([]);
    expect(first.files.map((f) => f.path)).toEqual(['pages/b/page.html', 'pages/index.html', 'raw/b/page.md', 'raw/index.md', 'search-index.json', 'sidebars/0.html', 'site.json']);
    expect(second.files).toEqual(first.files);
    for (const f of first.files) expect(String(f.content)).not.toContain(root);
    const site = JSON.parse(String(first.files.find((f) => f.path === 'site.json')?.content)) as { pages: { path: string; title: string; lastModified: string; sidebar: number }[] };
    expect(site.pages.map((p) => [p.path, p.title, p.lastModified, p.sidebar])).toEqual([
      ['b/page', 'Page', '2026-01-02T00:00:00.000Z', 0],
      ['index', 'Home', '2026-01-01T00:00:00.000Z', 0],
    ]);
    rmSync(root, { recursive: true, force: true });
  });

  it('front-matter dates mode: dates only from front matter, unknown otherwise (commit-stable output)', async () => {
    const root = tree({ 'index.md': '---\nupdated: 2026-03-04\n---\n# Home\n', 'b.md': '# No date\n' });
    const files = await buildDocsSite({ root, dates: 'front-matter' });
    const site = JSON.parse(String(files.files.find((f) => f.path === 'site.json')?.content)) as { pages: { path: string; lastModified: string }[] };
    expect(site.pages.map((p) => [p.path, p.lastModified])).toEqual([
      ['b', ''],
      ['index', '2026-03-04T00:00:00.000Z'],
    ]);
    const fromFiles = await buildDocsSite({ root });
    const dated = JSON.parse(String(fromFiles.files.find((f) => f.path === 'site.json')?.content)) as { pages: { path: string; lastModified: string }[] };
    expect(dated.pages.find((p) => p.path === 'b')?.lastModified).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    rmSync(root, { recursive: true, force: true });
  });

  it.each<[string, Record<string, string>, [string, string, string][]]>([
    ['case-duplicate pages', { 'a.md': '# A', 'A.MD': '# A' }, [['error', 'docs-duplicate-page', 'docs/a.md']]],
    ['broken link', { 'a.md': '[x](./nope.md)' }, [['warning', 'docs-broken-link', 'docs/a.md']]],
    ['nav to a missing page', { 'a.md': '# A', 'config.json': '{"nav":[{"title":"N","path":"n"}]}' }, [['warning', 'docs-nav-missing-page', 'docs/config.json']]],
  ])('%s', async (_name, files, want) => {
    const root = tree(files);
    const result = await buildDocsSite({ root });
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.file])).toEqual(want);
    rmSync(root, { recursive: true, force: true });
  });

  it('reports a missing docs folder', async () => {
    const result = await buildDocsSite({ root: tmpdir(), docsDir: 'no-such-docs-folder' });
    expect(result.files).toEqual([]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['docs-folder-missing']);
  });
});
