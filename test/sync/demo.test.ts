/**
 * `wharf sync --demo` as a user runs it: a real process, the embedded database, nothing else;
 * changes flow to JSON files under data/sync-demo/out/ and the process exits 0 after --duration.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

it('wharf sync --demo exports the products and the live changes to files', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'wharf-sync-demo-'));
  const child = spawn(process.execPath, [path.join(repo, 'scripts', 'wharf.mjs'), 'sync', '--demo', '--duration', '6', '--health-port', '0', '--root', root], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  while (!/health on (http:\/\/\S+)\/health/.test(out)) await new Promise((r) => setTimeout(r, 50));
  // The embedded database lives in the sync process: /health probes it there.
  const health = await fetch(`${/health on (http:\/\/\S+)\/health/.exec(out)?.[1]}/health`);
  expect(await health.json()).toMatchObject({ status: 'healthy', service: 'wharf-sync', checks: { database: { status: 'ok (all)' } } });
  const code = await exited;
  expect(code).toBe(0);
  const lines = out.trim().split('\n');
  expect(lines[0]).toMatch(/^wharf sync demo: exporting inventory."Products" changes to data\/sync-demo\/out\/ \(one file per batch\); health on http:\/\/127\.0\.0\.1:\d+\/health\. Ctrl-C stops\.$/);
  expect(lines).toContain('demo/Products v1..v1000: 1000 change(s) {"I":1000} -> data/sync-demo/out/demo/Products/000000001000.json');
  expect(lines.some((l) => /^demo\/Products v\d+\.\.v\d+: 1 change\(s\) \{"U":1\}/.test(l))).toBe(true);
  const dir = path.join(root, 'data', 'sync-demo', 'out', 'demo', 'Products');
  const files = (await readdir(dir)).sort();
  const records = (await Promise.all(files.map(async (f) => (JSON.parse(await readFile(path.join(dir, f), 'utf8')) as { records: { $version: number }[] }).records))).flat();
  expect(records.map((r) => r.$version)).toEqual(records.map((_, i) => i + 1));
}, 120_000);

// `--duration 45` and a signal after the first export: the process ends promptly (it lingered until
// the duration ended: the duration timer kept it alive after the exporting stopped).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  it(`wharf sync --demo --duration 45 ends promptly on ${signal}`, async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'wharf-sync-demo-'));
    const child = spawn(process.execPath, [path.join(repo, 'scripts', 'wharf.mjs'), 'sync', '--demo', '--duration', '45', '--health-port', '0', '--root', root], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      while (!out.includes('demo/Products v1..v1000')) await new Promise((r) => setTimeout(r, 50));
      child.kill(signal);
      const lingering = new Promise<'still running after 15 s'>((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000).unref());
      expect(await Promise.race([exited, lingering])).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
}
