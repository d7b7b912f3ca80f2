/** `wharf docs serve|export` through runDocsCommand, in a temp project. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDocsCommand } from '../../compiler/docs-site/cli.js';
import { createFixture, type Fixture } from './fixture.js';

let fixture: Fixture;
beforeAll(() => {
  fixture = createFixture();
});
afterAll(() => fixture.cleanup());

function io(env: NodeJS.ProcessEnv = {}, stopSignal?: Promise<void>): { out: string[]; err: string[]; io: Parameters<typeof runDocsCommand>[1] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l) => out.push(l), err: (l) => err.push(l), cwd: fixture.root, env, ...(stopSignal ? { stopSignal } : {}) } };
}

describe('wharf docs', () => {
  it.each([[['nope']], [[]], [['serve', '--bogus']]])('%j is a usage error (2)', async (argv) => {
    const run = io();
    expect(await runDocsCommand(argv, run.io)).toBe(2);
    expect(run.err.join('\n')).toContain('usage: wharf docs serve');
  });

  it('build reports broken links and missing images with file:line; --strict makes them errors', async () => {
    const broken = createFixture({ 'index.md': '---\ntitle: Home\n---\n# Home\n\nSee [gone](./gone.md).\n\n![pic](./img/none.png)\n' });
    try {
      const loose = io();
      expect(await runDocsCommand(['build'], { ...loose.io, cwd: broken.root })).toBe(0);
      expect(loose.err).toEqual([
        'docs/index.md:6:1: warning docs-broken-link: link ./gone.md does not point at a page',
        'docs/index.md:8:1: warning docs-missing-image: image ./img/none.png is not in the docs folder',
      ]);
      expect(loose.out).toEqual([expect.stringMatching(/^docs: docs\/: 1 pages, 0 error\(s\), 2 warning\(s\) in \d+ ms$/)]);
      const strict = io();
      expect(await runDocsCommand(['build', '--strict'], { ...strict.io, cwd: broken.root })).toBe(1);
      expect(strict.err[0]).toBe('docs/index.md:6:1: error docs-broken-link: link ./gone.md does not point at a page');
      expect(strict.out[0]).toMatch(/^docs: docs\/: 1 pages, 2 error\(s\), 0 warning\(s\) in \d+ ms \(--strict\)$/);
    } finally {
      broken.cleanup();
    }
  });

  it('--theme takes a built-in name or a folder, anything else is a usage error (2)', async () => {
    const bad = io();
    expect(await runDocsCommand(['serve', '--theme', 'neon'], bad.io)).toBe(2);
    expect(bad.err[0]?.split("\n")[0]).toBe('--theme neon: neither a built-in theme (default, ocean, sepia) nor a folder');
    const unknown = io({ Docs__Theme: 'neon' });
    expect(await runDocsCommand(['export', 'unknown-theme-out'], unknown.io)).toBe(0);
    expect(unknown.err[0]).toBe('Docs:Theme neon is not a built-in theme (default, ocean, sepia); using default');
    const ok = io({ Docs__Theme: 'ocean' });
    expect(await runDocsCommand(['export', 'themed-out', '--theme', 'sepia'], ok.io)).toBe(0);
    expect(readFileSync(join(fixture.root, 'themed-out', 'zebra', 'index.html'), 'utf8')).toContain('<link rel="stylesheet" href="/_wharf/themes/sepia.css">');
    expect(existsSync(join(fixture.root, 'themed-out', '_wharf', 'themes', 'sepia.css'))).toBe(true);
  });

  it('export <dir> writes the static site with --base-url and --base-path', async () => {
    const run = io();
    expect(await runDocsCommand(['export', 'site-out', '--base-url', 'https://d.example/', '--base-path', 'handbook'], run.io)).toBe(0);
    expect(run.out).toEqual([`docs: exported 5 pages (22 files) to ${join(fixture.root, 'site-out')}`]);
    expect(readFileSync(join(fixture.root, 'site-out', 'robots.txt'), 'utf8')).toBe('User-agent: *\nAllow: /\nSitemap: https://d.example/handbook/sitemap.xml\n');
    expect(readFileSync(join(fixture.root, 'site-out', 'zebra', 'index.html'), 'utf8')).toContain('href="/handbook/_wharf/docs.css"');
  });

  it('serve --export <dir> exports and exits too; warnings go to stderr', async () => {
    const run = io();
    expect(await runDocsCommand(['serve', '--export', 'out2'], run.io)).toBe(0);
    expect(existsSync(join(fixture.root, 'out2', 'index.html'))).toBe(true);
    expect(run.err).toEqual(['docs/config.json: warning docs-nav-missing-page at /nav/3/path: nav entry "Later" points at not-written-yet, which is not a page; it is left out\n    hint: Create the Markdown file or fix the path (relative to the docs folder, without .md).']);
  });

  it('serve listens on --port, answers, and stops on the signal', async () => {
    let stop = (): void => undefined;
    const stopped = new Promise<void>((r) => (stop = r));
    const run = io({ Docs__EnableHotReload: 'false' }, stopped);
    const running = runDocsCommand(['serve', '--port', '0', '--base-path', '/docs'], run.io);
    const end = Date.now() + 20_000;
    while (!run.out[0] && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const url = /at (http:\/\/127\.0\.0\.1:\d+)\/docs\//.exec(run.out[0] ?? '')?.[1];
    expect(url).toBeDefined();
    const res = await fetch(`${url}/docs/api/build-version`);
    expect(await res.json()).toEqual({ version: 1 });
    stop();
    expect(await running).toBe(0);
    expect(run.out[1]).toBe('docs: stopping (build version 1)');
  });

  it('fails with 1 when the docs folder is missing', async () => {
    const run = io({ Docs__RootPath: 'missing-folder' });
    expect(await runDocsCommand(['export', 'x'], run.io)).toBe(1);
    expect(run.err[0]).toContain('docs-folder-missing');
  });
});
