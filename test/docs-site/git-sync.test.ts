/**
 * Git sync against a real repository made by the test (git init, commits): the docs folder
 * follows the repository's `Git:Root`, the served page changes after a commit and a sync, the
 * build version moves only when content changed, a failing pull keeps serving, the cron schedule
 * pulls on its own, and credentials reach the server as a Basic header without leaking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildDocsSite } from '../../compiler/docs-site/index.js';
import { buildDocsServer, docsControl } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { loadDocsSite, type LoadedDocsSite } from '../../runtime/docs-site/site.js';
import { createGitSync, maskSecrets, type DocsGitSync } from '../../runtime/docs-site/git-sync.js';
import { readGitSettings, type GitSettings } from '../../runtime/docs-site/git-settings.js';
import { runDocsCommand } from '../../compiler/docs-site/cli.js';

let base: string;
let origin: string;
let project: string;
const logs: string[] = [];

function git(args: string[], cwd = origin): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.org', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();
}

function commit(files: Record<string, string | null>, message: string): void {
  for (const [file, text] of Object.entries(files)) {
    const path = join(origin, file);
    if (text === null) rmSync(path);
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
  git(['add', '-A']);
  git(['commit', '-q', '-m', message]);
}

const settings = (over: Partial<GitSettings> = {}): GitSettings => ({ ...readGitSettings({}, base), url: origin, root: 'site/docs', enabled: true, ...over });

async function build(): Promise<LoadedDocsSite> {
  const result = await buildDocsSite({ root: project });
  return loadDocsSite(result.files);
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'wharf-git-'));
  origin = join(base, 'origin');
  project = join(base, 'project');
  mkdirSync(origin);
  mkdirSync(project);
  git(['init', '-q']);
  commit({ 'README.md': 'not docs\n', 'site/docs/index.md': '# Home\n\nFirst version.\n', 'site/docs/old.md': '# Old\n\nGoing away.\n' }, 'first');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('git sync', () => {
  let sync: DocsGitSync;
  let app: FastifyInstance;
  afterAll(async () => {
    await sync?.stop();
    await app?.close();
  });

  it('clones Git:Root into RootPath, then follows commits through the normal rebuild', async () => {
    const docs = join(project, 'docs');
    sync = createGitSync(settings(), docs, (level, message) => logs.push(`${level}: ${message}`));
    const first = await sync.syncNow();
    expect([first.ok, first.changed, first.commit]).toEqual([true, true, git(['rev-parse', 'HEAD'])]);
    expect(readdirSync(docs).sort()).toEqual(['index.md', 'old.md']);

    app = await buildDocsServer({ site: await build(), settings: defaultDocsSettings({ rootPath: docs, themeDir: base }), rebuild: build });
    expect((await app.inject({ url: '/' })).body).toContain('First version.');

    commit({ 'site/docs/index.md': '# Home\n\nSecond version.\n', 'site/docs/old.md': null, 'site/docs/guide/new.md': '# New\n' }, 'second');
    const second = await sync.syncNow();
    expect([second.ok, second.changed]).toEqual([true, true]);
    expect(await docsControl(app).reload()).toBe(true);
    expect((await app.inject({ url: '/' })).body).toContain('Second version.');
    expect((await app.inject({ url: '/old' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/guide/new' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/build-version' })).json()).toEqual({ version: 2 });

    // Nothing new upstream: nothing written, the version stays.
    const idle = await sync.syncNow();
    expect([idle.ok, idle.changed]).toEqual([true, false]);
    expect(await docsControl(app).reload()).toBe(false);
    expect((await app.inject({ url: '/api/build-version' })).json()).toEqual({ version: 2 });
  });

  it('keeps serving the last good content when the pull fails, and logs it', async () => {
    renameSync(origin, `${origin}-gone`);
    try {
      const failed = await sync.syncNow();
      expect([failed.ok, failed.changed]).toEqual([false, false]);
      expect(logs.at(-1)).toMatch(/^error: docs git sync failed, still serving the last good content: git fetch failed: /);
      expect(await docsControl(app).reload()).toBe(false);
      expect((await app.inject({ url: '/' })).body).toContain('Second version.');
    } finally {
      renameSync(`${origin}-gone`, origin);
    }
  });

  it('pulls on the cron schedule and the page changes on its own', async () => {
    await sync.stop();
    sync = createGitSync(settings({ cron: '* * * * * *' }), join(project, 'docs'), () => undefined);
    await sync.syncNow();
    sync.start(() => docsControl(app).reload());
    commit({ 'site/docs/index.md': '# Home\n\nThird version, by cron.\n' }, 'third');
    const deadline = Date.now() + 15_000;
    while (!(await app.inject({ url: '/' })).body.includes('Third version, by cron.') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await app.inject({ url: '/' })).body).toContain('Third version, by cron.');
    expect((await app.inject({ url: '/api/build-version' })).json()).toEqual({ version: 3 });
  });

  it('refuses a Git:Root that is not in the repository without touching RootPath', async () => {
    const other = createGitSync(settings({ root: 'nope' }), join(project, 'docs'), () => undefined);
    const result = await other.syncNow();
    await other.stop();
    expect(result).toEqual({ ok: false, changed: false, commit: null, error: 'Git:Root nope is not a folder of the repository' });
    expect(existsSync(join(project, 'docs', 'index.md'))).toBe(true);
  });
});

describe('wharf docs with Git:Url', () => {
  const run = async (env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; out: string[]; err: string[] }> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runDocsCommand(['export', 'site-out'], { out: (l) => out.push(l), err: (l) => err.push(l), cwd, env });
    return { code, out, err };
  };

  it('export pulls the repository docs first (GIT_URL, GIT_ROOT) on a machine without a docs folder', async () => {
    const fresh = join(base, 'fresh');
    mkdirSync(fresh);
    const result = await run({ GIT_URL: origin, GIT_ROOT: 'site/docs' }, fresh);
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(/^docs git sync: .*origin at [0-9a-f]{12}, content changed$/);
    expect(readFileSync(join(fresh, 'site-out', 'index.html'), 'utf8')).toContain('Third version, by cron.');
  });

  it('an unreadable Git:Cron stops the command with the reason (1)', async () => {
    const result = await run({ GIT_URL: origin, GIT_CRON: 'every tuesday' }, join(base, 'fresh'));
    expect(result.code).toBe(1);
    expect(result.err.join('\n')).toMatch(/every tuesday|pattern/i);
  });
});

describe('git credentials', () => {
  it('sends Username/Password as a Basic header, never in the URL, the checkout or the log', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(req.headers.authorization ? 403 : 401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const messages: string[] = [];
    const sync = createGitSync(settings({ url: `http://127.0.0.1:${port}/docs.git`, username: 'reader', password: 's3cret-Pw' }), join(base, 'cred-docs'), (_l, m) => messages.push(m));
    const result = await sync.syncNow();
    await sync.stop();
    server.close();
    expect(result.ok).toBe(false);
    expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from('reader:s3cret-Pw').toString('base64')}`);
    expect(messages.join('\n')).not.toContain('s3cret-Pw');
    expect(existsSync(join(base, 'cred-docs'))).toBe(false);
  });

  it.each([
    ['git clone https://bob:hunter2@example.org/x.git failed', 'git clone https://bob:***@example.org/x.git failed'],
    ['fatal: password hunter2 rejected', 'fatal: password *** rejected'],
  ])('masks %j', (text, want) => expect(maskSecrets(text, { password: 'hunter2' })).toBe(want));
});

describe('readGitSettings', () => {
  it('reads Git:* from the settings file and lets GIT_* / Git__* win; default cron every 5 minutes', () => {
    mkdirSync(join(base, 'environments'), { recursive: true });
    writeFileSync(join(base, 'environments', 'settings.json'), JSON.stringify({ Git: { Url: 'https://example.org/docs.git', Root: '/docs/', Username: 'file-user' } }));
    expect(readGitSettings({ GIT_PASSWORD: 'pw', Git__Username: 'env-user' }, base)).toEqual({
      enabled: true,
      url: 'https://example.org/docs.git',
      branch: null,
      root: 'docs',
      username: 'env-user',
      password: 'pw',
      cron: '*/5 * * * *',
    });
    expect(readGitSettings({}, join(base, 'nowhere')).enabled).toBe(false);
    expect(readGitSettings({ GIT_URL: 'x', GIT_ENABLED: 'false' }, join(base, 'nowhere')).enabled).toBe(false);
  });
});
