/**
 * generated/docs/ is not emitted (issue 24 item 4): nothing read it in production (`wharf docs
 * serve|export` build in memory, with the file dates the spec asks for). `wharf build` still checks
 * docs/ and prints its findings, writes no docs pages, and removes those an older build left.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureProject, REPO_ROOT, type TempProject } from '../support/project.js';

const run = promisify(execFile);
const WHARF = path.join(REPO_ROOT, 'scripts/wharf.mjs');

let project: TempProject;
beforeAll(async () => {
  project = await fixtureProject();
  await mkdir(path.join(project.root, 'docs'));
  await writeFile(path.join(project.root, 'docs', 'index.md'), '# Home\n\nSee [the guide](./guide.md).\n');
  // what an older build left behind
  await mkdir(path.join(project.root, 'generated', 'docs', 'pages'), { recursive: true });
  await writeFile(path.join(project.root, 'generated', 'docs', 'site.json'), '{}\n');
  await writeFile(path.join(project.root, 'generated', 'docs', 'pages', 'index.html'), '<p>old</p>\n');
});
afterAll(() => project.remove());

describe('wharf build and the docs folder', () => {
  it('reports the docs findings, writes no docs pages and prunes the old ones', async () => {
    const { stdout, stderr } = await run(process.execPath, [WHARF, 'build', '--root', project.root], { cwd: project.root });
    expect(stderr).toContain('docs/index.md:3:1: warning docs-broken-link');
    expect(stdout).toMatch(/^Compiled 4 endpoints into generated\/ in \d+ ms \(.*, 2 removed\)\.$/m);
    expect(existsSync(path.join(project.root, 'generated', 'docs'))).toBe(false);
    expect(existsSync(path.join(project.root, 'generated', 'manifest.json'))).toBe(true);
  }, 120_000);

  it('`wharf check` passes on that output (no docs pages expected)', async () => {
    const { stdout } = await run(process.execPath, [WHARF, 'check', '--root', project.root], { cwd: project.root });
    expect(stdout).toContain('Check passed: 4 endpoints, generated/ is up to date.');
  }, 120_000);
});
