/**
 * `wharf diff` as a user runs it in CI (a real child process in a git repository holding a copy of
 * the demo project): unchanged, nothing to report; a removed column is reported as breaking and
 * exits 1 against the default base (the merge base with main), a named ref and a file, and
 * `--allow-breaking` lets it pass.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, REPO_ROOT, type TempProject } from '../support/project.js';

const run = promisify(execFile);
const WHARF = path.join(REPO_ROOT, 'scripts/wharf.mjs');
const ENTITY = 'endpoints/SQL/Inventory/Warehouses/entity.json';
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.test' };

async function wharf(root: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [WHARF, 'diff', ...args, '--root', root], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const git = (root: string, ...args: string[]) => run('git', ['-C', root, ...args], { env: GIT_ENV });

let project: TempProject;
beforeAll(async () => {
  project = await copyProject();
  await mkdir(path.join(project.root, 'generated'));
  await copyFile(path.join(REPO_ROOT, 'generated/openapi.json'), path.join(project.root, 'generated/openapi.json'));
  await git(project.root, 'init', '-q', '-b', 'main');
  await git(project.root, 'add', '-A');
  await git(project.root, 'commit', '-q', '-m', 'base');
  await git(project.root, 'checkout', '-q', '-b', 'feature');
});
afterAll(() => project.remove());

describe('wharf diff', () => {
  it('reports nothing when the working tree builds the committed OpenAPI', async () => {
    const diff = await wharf(project.root);
    expect(diff.stderr).toBe('');
    expect(diff.stdout).toMatch(/^0 change\(s\) against merge base [0-9a-f]{12}:generated\/openapi\.json: 0 breaking, 0 compatible\.\n$/);
    expect(diff.code).toBe(0);
  }, 60_000);

  it('a removed column is breaking: exit 1 against the merge base, a ref and a file; --allow-breaking passes', async () => {
    const file = path.join(project.root, ENTITY);
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace('    "City",\n', ''));
    const line = 'breaking    GET /api/{env}/Inventory/Warehouses response 200 application/json: field value[].City removed';
    for (const base of [[], ['main'], ['generated/openapi.json']]) {
      const diff = await wharf(project.root, ...base);
      expect(diff.code, diff.stderr).toBe(1);
      expect(diff.stdout.split('\n')).toContain(line);
      expect(diff.stderr).toMatch(/ breaking, \d+ compatible\. Clients of the base break; pass --allow-breaking if that is intended\.\n$/);
    }
    const allowed = await wharf(project.root, '--allow-breaking');
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain(line);
    expect(allowed.stdout).toMatch(/Allowed \(--allow-breaking\)\.\n$/);
  }, 120_000);

  it('an unknown ref is a usage error (exit 2) naming it', async () => {
    const diff = await wharf(project.root, 'no-such-ref');
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain("wharf diff: cannot read generated/openapi.json at 'no-such-ref'");
  }, 60_000);
});
