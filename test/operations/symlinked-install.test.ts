/**
 * generated/ does not depend on where node_modules physically is (issue 24 item 4): a clean copy of
 * Wharf (the files git tracks or would track, none of the ignored ones) whose node_modules is a
 * symlink to the real install (as with pnpm, a monorepo or a shared install, where esbuild sees the
 * resolved paths) passes `wharf check` on the committed generated/, and `wharf build` from an empty
 * generated/ writes the committed bytes again. The build also leaves the console's validator in the
 * copy's own .wharf/dist/validator/, not in generated/.
 */
import { execFile as execFileCb } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/project.js';
import { spawnServer } from './server-process.js';

const execFile = promisify(execFileCb);
const WHARF = (copy: string): string => path.join(copy, 'scripts', 'wharf.mjs');

let copy: string;

/** Every file under `dir`, relative (posix), with its bytes. */
async function tree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, abs).split(path.sep).join('/'), await readFile(abs));
  }
  return out;
}

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'wharf-symlinked-'));
  const { stdout } = await execFile('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
  for (const rel of stdout.split('\0').filter((f) => f !== '')) {
    const from = path.join(REPO_ROOT, rel);
    if (!existsSync(from)) continue; // deleted in the working tree
    await mkdir(path.dirname(path.join(copy, rel)), { recursive: true });
    await cp(from, path.join(copy, rel), { verbatimSymlinks: true });
  }
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
}, 120_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe('a copy whose node_modules is a symlink', () => {
  it('has no .wharf and a symlinked node_modules (what the test is about)', async () => {
    expect(existsSync(path.join(copy, '.wharf'))).toBe(false);
    expect((await readdir(copy, { withFileTypes: true })).find((e) => e.name === 'node_modules')?.isSymbolicLink()).toBe(true);
  });

  it('passes `wharf check` on the committed generated/', async () => {
    const { stdout } = await execFile(process.execPath, [WHARF(copy), 'check'], { cwd: copy, maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).toMatch(/Check passed: \d+ endpoints, generated\/ is up to date\./);
  }, 180_000);

  it('`wharf build` from an empty generated/ writes the committed bytes, and the validator into .wharf/dist', async () => {
    const committed = await tree(path.join(copy, 'generated'));
    expect(committed.has('manifest.json')).toBe(true);
    await rm(path.join(copy, 'generated'), { recursive: true });
    await execFile(process.execPath, [WHARF(copy), 'build'], { cwd: copy, maxBuffer: 16 * 1024 * 1024 });
    const built = await tree(path.join(copy, 'generated'));
    expect([...built.keys()].sort()).toEqual([...committed.keys()].sort());
    const differing = [...built].filter(([rel, bytes]) => !bytes.equals(committed.get(rel)!)).map(([rel]) => rel);
    expect(differing).toEqual([]);
    expect(built.has('validator.bundle.mjs')).toBe(false);
    expect(existsSync(path.join(copy, '.wharf', 'dist', 'validator', 'validator.mjs'))).toBe(true);
  }, 240_000);

  it("the copy's compiled server validates an entity.json with the validator beside it", async () => {
    const server = await spawnServer({
      command: process.execPath,
      args: [path.join(copy, '.wharf', 'dist', 'runtime', 'main.js'), '--root', copy, '--port', '0'],
      env: { RateLimiting__Enabled: 'false', WebUi__SeedPassword: 'seed-password-1', HEALTHCHECK_SKIP_PROXY: 'true' },
    });
    try {
      const { csrf } = (await (await fetch(`${server.url}/ui/api/auth/csrf`)).json()) as { csrf: string };
      const signIn = await fetch(`${server.url}/ui/api/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `gateway_csrf=${csrf}` },
        body: JSON.stringify({ username: 'admin', password: 'seed-password-1', csrf }),
      });
      expect(await signIn.json()).toEqual({ ok: true });
      const cookies = signIn.headers.getSetCookie().map((line) => line.split(';')[0]!);
      const sessionCsrf = cookies.find((c) => c.startsWith('gateway_csrf='))!.split('=')[1]!;
      const response = await fetch(`${server.url}/ui/api/endpoints/sql/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-csrf-token': sessionCsrf },
        body: JSON.stringify({ content: { AllowedColumns: ['Id'] }, name: 'Things', namespace: 'Stock' }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ valid: false, errors: expect.arrayContaining([expect.stringContaining('DatabaseObjectName')]) });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});
