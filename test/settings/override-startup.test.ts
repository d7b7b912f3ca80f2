/**
 * A malformed `Section__Key` variable (or a misspelt key) stops every Wharf process at startup with
 * one line naming the variable, through the real CLI: `wharf start`, `wharf docs serve`, and a
 * settings typo fails `wharf check`. Before the registry, `Docs__EnableHotReload=nope` was read as
 * true and `RateLimting__Enabled` was ignored.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHARF_CLI } from '../support/gateway-process.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wharf-settings-start-'));
  await mkdir(path.join(root, 'environments'), { recursive: true });
  await mkdir(path.join(root, 'endpoints'), { recursive: true });
  await mkdir(path.join(root, 'docs'), { recursive: true });
  await writeFile(path.join(root, 'docs', 'index.md'), '# Home\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string>, settings: unknown = {}): Promise<{ code: number | null; out: string }> {
  return writeFile(path.join(root, 'environments', 'settings.json'), JSON.stringify(settings, null, 2)).then(
    () =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [WHARF_CLI, ...args], { cwd: root, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env } });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        // A process that did start (the defect) is stopped after a while so the test fails instead of hanging.
        const timer = setTimeout(() => child.kill('SIGTERM'), 45_000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve({ code, out });
        });
      }),
  );
}

describe('settings at startup', () => {
  it.each([
    [['start', '--root', '.', '--port', '0'], { Metrics__Enabled: 'nope' }, "wharf: Setting 'Metrics:Enabled' (from environment variable Metrics__Enabled) must be true or false"],
    [['start', '--root', '.', '--port', '0'], { RateLimting__Enabled: 'false' }, "wharf: Setting 'RateLimting:Enabled' (from environment variable RateLimting__Enabled) is not a known setting. Did you mean 'RateLimiting:Enabled'?"],
    [['docs', 'serve', '--port', '0'], { Docs__EnableHotReload: 'nope' }, "Setting 'Docs:EnableHotReload' (from environment variable Docs__EnableHotReload) must be true or false"],
  ])('wharf %j with %j stops, naming the variable', async (args, env, line) => {
    const { code, out } = await run(args, env);
    expect(code).not.toBe(0);
    expect(out).toContain(line);
  }, 60_000);

  it('wharf check fails on a settings typo with file:line and a suggestion', async () => {
    const { code, out } = await run(['check', '--root', '.'], {}, { RateLimting: { Enabled: false } });
    expect(code).toBe(1);
    expect(out).toContain("environments/settings.json:2:3: error settings-unknown-key at /RateLimting: 'RateLimting' is not a known setting of environments/settings.json\n    hint: did you mean 'RateLimiting'?");
  }, 120_000);
});
