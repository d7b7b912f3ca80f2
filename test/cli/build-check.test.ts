/**
 * `wharf build` / `wharf check` as a user (and CI) runs them: a real child process, exit codes,
 * the diagnostics naming file:line and rule, and nothing written when the build fails.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../compiler/output-tree.js';
import { copyProject, REPO_ROOT, type TempProject } from '../support/project.js';

const run = promisify(execFile);
const WHARF = path.join(REPO_ROOT, 'scripts/wharf.mjs');

async function wharf(root: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [WHARF, ...args, '--root', root, '--no-docs'], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

let project: TempProject;
beforeAll(async () => {
  project = await copyProject();
});
afterAll(() => project.remove());

describe('wharf build and check', () => {
  it('builds the sample tree, then check passes on the fresh output', async () => {
    const build = await wharf(project.root, 'build');
    expect(build.stderr).toBe('');
    expect(build.stdout).toMatch(/^Compiled 18 endpoints into generated\//);
    expect(build.code).toBe(0);
    const check = await wharf(project.root, 'check');
    expect(check.stdout).toContain('Check passed: 18 endpoints, generated/ is up to date.');
    expect(check.code).toBe(0);
  });

  it('check fails on a stale generated/ and names the file', async () => {
    const file = path.join(project.root, 'generated/openapi.json');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace('"Wharf API"', '"Edited by hand"'));
    const check = await wharf(project.root, 'check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('generated/openapi.json: differs from a fresh build');
    await writeFile(file, original);
  });

  it('an invalid entity.json fails the build naming file, line and rule, and writes nothing', async () => {
    const before = await listFiles(path.join(project.root, 'generated'));
    const manifest = await readFile(path.join(project.root, 'generated/manifest.json'));
    const entity = path.join(project.root, 'endpoints/SQL/Inventory/Products/entity.json');
    const original = await readFile(entity, 'utf8');
    await writeFile(entity, original.replace('"AllowedMethods": ["GET", "QUERY"]', '"AllowedMethods": ["GET", "FETCH"]'));
    const build = await wharf(project.root, 'build');
    expect(build.code).toBe(1);
    expect(build.stderr).toMatch(
      /endpoints\/SQL\/Inventory\/Products\/entity\.json:\d+:\d+: error allowed-methods at \/AllowedMethods\/1: /,
    );
    expect(build.stderr).toContain('Build failed: nothing was written to generated/.');
    expect(await listFiles(path.join(project.root, 'generated'))).toEqual(before);
    expect(await readFile(path.join(project.root, 'generated/manifest.json'))).toEqual(manifest);
    const check = await wharf(project.root, 'check');
    expect(check.code).toBe(1);
    await writeFile(entity, original);
  });

  it('a reserved namespace is skipped by build (warning) but fails check', async () => {
    const entity = path.join(project.root, 'endpoints/Proxy/Weather/entity.json');
    const original = await readFile(entity, 'utf8');
    await writeFile(entity, original.replace('"Url"', '"Namespace": "Admin",\n  "Url"'));
    const build = await wharf(project.root, 'build');
    expect(build.code).toBe(0);
    expect(build.stderr).toContain("warning namespace-reserved at /Namespace: 'Admin' is a reserved namespace name");
    expect(build.stdout).toMatch(/^Compiled 17 endpoints/);
    const check = await wharf(project.root, 'check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("error namespace-reserved at /Namespace: 'Admin' is a reserved namespace name");
    await writeFile(entity, original);
  });

  it('rejects unknown commands and bad flags with exit code 2', async () => {
    expect((await wharf(project.root, 'frobnicate')).code).toBe(2);
    const bad = await wharf(project.root, 'start', '--port', 'x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--port must be an integer from 0 to 65535, got 'x'");
  });
});
