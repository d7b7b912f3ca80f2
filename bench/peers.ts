/**
 * Peers for side-by-side benchmarks, installed into bench/.peers/<name> (git-ignored) by
 * `npm run bench:peers`, never as product dependencies. A peer that is not installed is skipped.
 *
 * Platformatic DB 2.61 (the last release for Node 20) serves REST routes generated from the
 * database; it runs as its own process against the same PostgreSQL, with the same pool size.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/setup/free-port.js';

const PEERS = path.join(path.dirname(fileURLToPath(import.meta.url)), '.peers');
const PLT_BIN = path.join(PEERS, 'platformatic', 'node_modules', '@platformatic', 'db', 'db.mjs');

export interface RunningPeer {
  readonly list: string;
  readonly byKey: string;
  /** The peer's server process (its CPU time is measured). */
  readonly pid: number | null;
  close(): Promise<void>;
}

async function waitForOpenApi(base: string, child: ChildProcess, deadlineMs: number): Promise<Record<string, unknown>> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`platformatic exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/documentation/json`);
      if (res.ok) return (await res.json()) as Record<string, unknown>;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('platformatic did not start in time');
}

/**
 * Platformatic DB on the bench's database. `logLevel` null: its default (pino at `info` with
 * fastify's two lines per request), as its users run it; `'warn'`: no line per request.
 */
export async function startPlatformatic(pgUrl: string, poolSize: number, logLevel: 'warn' | null = null): Promise<RunningPeer | null> {
  if (!existsSync(PLT_BIN)) return null;
  const dir = await mkdtemp(path.join(tmpdir(), 'wharf-bench-plt-'));
  const port = await freePort();
  const config = {
    server: { hostname: '127.0.0.1', port, ...(logLevel ? { logger: { level: logLevel } } : {}) },
    db: { connectionString: pgUrl, graphql: false, openapi: true, schema: ['inventory'], poolSize },
    watch: false,
  };
  await writeFile(path.join(dir, 'platformatic.json'), JSON.stringify(config));
  const child = spawn(process.execPath, [PLT_BIN, 'start', '-c', path.join(dir, 'platformatic.json')], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  const close = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const base = `http://127.0.0.1:${port}`;
    const doc = await waitForOpenApi(base, child, 60_000);
    const paths = Object.keys((doc['paths'] ?? {}) as Record<string, unknown>);
    const collection = paths.find((p) => /products\/?$/i.test(p) && !p.includes('{'));
    const item = paths.find((p) => /products\/\{[^}]+\}$/i.test(p));
    if (!collection || !item) throw new Error(`no products routes in ${paths.join(', ')}`);
    return {
      list: `${base}${collection}?fields=productId,productName,unitPrice&where.unitPrice.gt=100&where.categoryId.eq=3&orderby.unitPrice=desc&limit=50`,
      byKey: `${base}${item.replace(/\{[^}]+\}/, '4242')}`,
      pid: child.pid ?? null,
      close,
    };
  } catch (error) {
    await close();
    console.log(`  (Platformatic DB did not start: ${(error as Error).message}; ${stderr.slice(-300)})`);
    return null;
  }
}
