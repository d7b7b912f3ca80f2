/**
 * Git sync mirrors `Git:Root` of a repository into the docs folder. A repository (a compromised
 * or careless one: anyone who can push to it) whose `Git:Root` is a symbolic link, or lies below
 * one, pointed the mirror at a folder of the server itself: its Markdown files were copied into
 * the docs folder and published (`/raw/secret` served the server's file); a `Git:Root` of `..`
 * mirrored the checkout's parent. `Git:Root` must now resolve to a folder inside the checkout;
 * links inside it were and are skipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildDocsSite } from '../../compiler/docs-site/index.js';
import { readGitSettings } from '../../runtime/docs-site/git-settings.js';
import { createGitSync } from '../../runtime/docs-site/git-sync.js';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { loadDocsSite } from '../../runtime/docs-site/site.js';

let base: string;
let origin: string;

function git(args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.org', '-c', 'init.defaultBranch=main', ...args], { cwd: origin });
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'wharf-git-link-'));
  origin = join(base, 'origin');
  const outside = join(base, 'server-private');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.md'), '# Secret\n\nserver-private-text\n');
  mkdirSync(join(origin, 'real'), { recursive: true });
  writeFileSync(join(origin, 'real', 'index.md'), '# Home\n');
  symlinkSync(join(origin, 'real', 'index.md'), join(origin, 'real', 'home-link.md'));
  symlinkSync(outside, join(origin, 'real', 'linked-folder'));
  symlinkSync(join(outside, 'secret.md'), join(origin, 'real', 'leak.md'));
  symlinkSync(outside, join(origin, 'docs'));
  symlinkSync(base, join(origin, 'up'));
  git(['init', '-q']);
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'links']);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

it.each(['docs', 'up/server-private', '..'])('refuses Git:Root %s (out of the checkout) and publishes nothing', async (root) => {
  const project = mkdtempSync(join(base, 'project-'));
  const docs = join(project, 'docs');
  const sync = createGitSync({ ...readGitSettings({}, base), url: origin, root, enabled: true }, docs, () => undefined);
  try {
    const result = await sync.syncNow();
    expect(result).toEqual({ ok: false, changed: false, commit: null, error: `Git:Root ${root} is not a folder of the repository` });
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, 'index.md'), '# Home\n');
    const site = await loadDocsSite((await buildDocsSite({ root: project })).files);
    const app = await buildDocsServer({ site, settings: defaultDocsSettings({ rootPath: docs, themeDir: project }) });
    expect((await app.inject({ url: '/raw/secret' })).statusCode).toBe(404);
    await app.close();
  } finally {
    await sync.stop();
  }
});

it('mirrors a Git:Root inside the checkout, without the links in it', async () => {
  const docs = join(mkdtempSync(join(base, 'project-')), 'docs');
  const sync = createGitSync({ ...readGitSettings({}, base), url: origin, root: 'real', enabled: true }, docs, () => undefined);
  try {
    expect((await sync.syncNow()).ok).toBe(true);
    expect(readdirSync(docs)).toEqual(['index.md']);
  } finally {
    await sync.stop();
  }
});
