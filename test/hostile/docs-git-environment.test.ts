/**
 * Git sync ran git with the server's whole environment: an inherited GIT_DIR made the checkout's
 * git commands read another repository (its commit and files were published), GIT_CONFIG_* could
 * rewrite the URL (`url.<other>.insteadOf`) or set any option, GIT_TRACE wrote files. git now gets
 * an allow-list (PATH, HOME, locale, temp, proxies, ...) and the few variables it needs set by us.
 * `Git:Branch` and `Git:Url` reached git as arguments where a value starting with `-` was read as
 * an option (`git fetch ... origin --upload-pack=<command>` runs the command): such values are
 * refused when the settings are read, and by createGitSync; the calls pass them after
 * `--end-of-options`. The machine's /etc/gitconfig applied too (a system `url.*.insteadOf` synced
 * another repository): git runs with GIT_CONFIG_NOSYSTEM=1.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WharfError } from '../../runtime/errors/wharf-error.js';
import { readGitSettings, type GitSettings } from '../../runtime/docs-site/git-settings.js';
import { createGitSync } from '../../runtime/docs-site/git-sync.js';

let base: string;
let origin: string;
let decoy: string;

function git(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.org', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();
}

function repository(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  git(dir, ['init', '-q']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'files']);
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'wharf-git-env-'));
  origin = join(base, 'origin');
  decoy = join(base, 'decoy');
  repository(origin, { 'index.md': '# Home\n\nthe real docs\n' });
  repository(decoy, { 'index.md': '# Decoy\n\nnot the configured repository\n', 'planted.md': '# Planted\n' });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const settings = (over: Partial<GitSettings> = {}): GitSettings => ({ ...readGitSettings({}, join(base, 'nowhere')), url: origin, enabled: true, ...over });

/** `vars` set in process.env while the sync is created (it takes its environment then), removed after. */
function withEnvironment<T>(vars: Record<string, string>, make: () => T): T {
  const before = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  Object.assign(process.env, vars);
  try {
    return make();
  } finally {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

it.each<[string, (trace: string) => Record<string, string>]>([
  ['GIT_DIR (another repository)', () => ({ GIT_DIR: join(decoy, '.git') })],
  ['GIT_DIR and GIT_WORK_TREE', () => ({ GIT_DIR: join(decoy, '.git'), GIT_WORK_TREE: decoy })],
  ['GIT_CONFIG_* (url.<decoy>.insteadOf the configured URL)', () => ({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.${decoy}.insteadOf`, GIT_CONFIG_VALUE_0: origin })],
  ['GIT_TRACE (writes a file)', (trace) => ({ GIT_TRACE: trace })],
])('an inherited %s does not change what is synced', async (_name, vars) => {
  const docs = join(mkdtempSync(join(base, 'project-')), 'docs');
  const trace = join(base, `trace-${Date.now()}.log`);
  const sync = withEnvironment(vars(trace), () => createGitSync(settings(), docs, () => undefined));
  try {
    const want = git(origin, ['rev-parse', 'HEAD']);
    for (let round = 0; round < 2; round++) {
      // the first round clones, the second fetches into the checkout
      const result = await sync.syncNow();
      expect([result.ok, result.error, result.commit]).toEqual([true, null, want]);
      expect(readdirSync(docs)).toEqual(['index.md']);
      expect(readFileSync(join(docs, 'index.md'), 'utf8')).toContain('the real docs');
    }
    expect(existsSync(trace)).toBe(false);
  } finally {
    await sync.stop();
  }
});

it('the machine\'s system gitconfig (url.<decoy>.insteadOf the configured URL) is not read: git runs with GIT_CONFIG_NOSYSTEM=1', async () => {
  // a `git` first on PATH (inherited) records what it was given and runs the real git with a system
  // config of our making (GIT_CONFIG_SYSTEM stands in for /etc/gitconfig, which a test cannot write)
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = mkdtempSync(join(base, 'bin-'));
  const systemConfig = join(bin, 'system.gitconfig');
  const record = join(bin, 'nosystem.log');
  writeFileSync(systemConfig, `[url "${decoy}"]\n\tinsteadOf = ${origin}\n`);
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$GIT_CONFIG_NOSYSTEM" >> '${record}'\nGIT_CONFIG_SYSTEM='${systemConfig}' exec '${realGit}' "$@"\n`, { mode: 0o755 });
  const docs = join(mkdtempSync(join(base, 'project-')), 'docs');
  const sync = withEnvironment({ PATH: `${bin}:${process.env['PATH'] ?? ''}` }, () => createGitSync(settings(), docs, () => undefined));
  try {
    const result = await sync.syncNow();
    expect([result.ok, result.error, result.commit]).toEqual([true, null, git(origin, ['rev-parse', 'HEAD'])]);
    expect(readdirSync(docs)).toEqual(['index.md']);
    const runs = readFileSync(record, 'utf8').split('\n').filter((line) => line !== '');
    expect(runs.length).toBeGreaterThan(0);
    expect(new Set(runs)).toEqual(new Set(['1']));
  } finally {
    await sync.stop();
  }
});

it.each([
  ['GIT_BRANCH', '--upload-pack=touch pwned', 'Git:Branch'],
  ['Git__Branch', '-b', 'Git:Branch'],
  ['GIT_URL', '--upload-pack=touch pwned', 'Git:Url'],
  ['Git__Url', '-uhttps://example.org/x.git', 'Git:Url'],
])('%s=%s is refused when the settings are read, naming the key', (variable, value, key) => {
  let error: unknown;
  try {
    readGitSettings({ [variable]: value }, join(base, 'nowhere'));
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(WharfError);
  expect((error as WharfError).code).toBe('SETTINGS_INVALID_VALUE');
  expect((error as Error).message).toBe(`Setting '${key}' (from environment variable ${variable}) must not start with '-' (git would read it as an option)`);
});

it('a Git:Branch starting with - in the settings file is refused too', () => {
  const project = mkdtempSync(join(base, 'file-'));
  mkdirSync(join(project, 'environments'));
  writeFileSync(join(project, 'environments', 'settings.json'), JSON.stringify({ Git: { Url: origin, Branch: ' --upload-pack=touch pwned' } }));
  expect(() => readGitSettings({}, project)).toThrow(/^Setting 'Git:Branch' \(from .*settings\.json\) must not start with '-' \(git would read it as an option\)$/);
});

it.each<[Partial<GitSettings>, string]>([
  [{ branch: '--upload-pack=touch pwned' }, 'Git:Branch'],
  [{ url: '--upload-pack=touch pwned' }, 'Git:Url'],
])('createGitSync refuses %j (settings built without the reader)', (over, key) => {
  const marker = join(base, 'pwned');
  expect(() => createGitSync(settings(over), join(base, 'refused-docs'), () => undefined)).toThrow(`${key} must not start with '-' (git would read it as an option)`);
  expect(existsSync(marker)).toBe(false);
});
