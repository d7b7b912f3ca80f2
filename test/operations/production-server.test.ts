/**
 * The production server as a real process on a real PostgreSQL: the compiled runtime runs without
 * the compiler or a TypeScript loader; SIGTERM to `npm start` frees the port; SIGTERM under load
 * answers every accepted request (no reset); a frozen PostgreSQL (SIGSTOP) ends requests in a clean
 * 500 with traceId, does not exhaust the pool, and shutdown still finishes within its deadline.
 */
import { execFile as execFileCb } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_ERROR_MESSAGE } from '../../runtime/errors/registry.js';
import { freePort } from '../setup/free-port.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { readDemoSql } from '../../runtime/sql/drivers/pglite.js';
import type { TempProject } from '../support/project.js';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';
import { REPEATED_SIGNAL_MS } from '../../runtime/lifecycle/graceful-shutdown.js';
import { exitWithin, freezePostgres, postgresProject, spawnServer, waitUntilPortFree, WHARF, type ServerProcess } from './server-process.js';

const execFile = promisify(execFileCb);

// Categories answers after 300 ms: a request that is surely in flight when the signal comes.
const SLOW_CATEGORIES = `
ALTER TABLE inventory."Categories" RENAME TO "CategoriesData";
CREATE VIEW inventory."Categories" AS
  SELECT c.* FROM inventory."CategoriesData" c CROSS JOIN (SELECT pg_sleep(0.3)) AS s;
`;

const SHUTTING_DOWN = { success: false, error: 'The server is shutting down. Retry the request.' };

let pg: TestPostgres;
let project: TempProject;
let token: string;

beforeAll(async () => {
  pg = await startPostgres({ sql: `${await readDemoSql()}\n${SLOW_CATEGORIES}` });
  project = await postgresProject(pg.url);
  const { stdout } = await execFile(process.execPath, [WHARF, 'token', 'create', '--username', 'ops'], { cwd: project.root });
  token = /whf_\S+/.exec(stdout)![0];
}, 120_000);

afterAll(async () => {
  await project?.remove();
  await pg?.stop();
});

function startWharf(env: Record<string, string> = {}, node: readonly string[] = []): Promise<ServerProcess> {
  return spawnServer({
    command: process.execPath,
    args: [...node, WHARF, 'start', '--root', project.root, '--port', '0'],
    env: { RateLimiting__Enabled: 'false', Caching__Enabled: 'false', ...env },
  });
}

async function get(server: ServerProcess, url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(15_000) });
  return { status: res.status, body: await res.json() };
}

describe('wharf start on a built tree', () => {
  it('runs the compiled runtime: no compiler, ts-morph, esbuild or TypeScript loader is loaded', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'wharf-modules-'));
    const record = path.join(dir, 'modules.txt');
    const recorder = path.join(import.meta.dirname, 'record-modules.mjs');
    const server = await startWharf({ WHARF_RECORD_MODULES: record }, ['--import', recorder]);
    try {
      expect((await get(server, '/api/demo/Inventory/Products/1')).status).toBe(200);
      // /metrics of the compiled server: the PostgreSQL pool is visible
      const scrape = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      const families = parsePrometheusText(await scrape.text());
      expect(sampleValue(families, 'wharf_db_pool_connections', { environment: 'demo', provider: 'postgres', state: 'total' })).toBeGreaterThanOrEqual(1);
      server.child.kill('SIGTERM');
      expect(await exitWithin(server, 10_000)).toBe(0);
      const loaded = (await readFile(record, 'utf8')).split('\n').filter(Boolean);
      expect(loaded.some((u) => u.endsWith('/.wharf/dist/runtime/main.js'))).toBe(true);
      expect(loaded.some((u) => u.includes('/node_modules/fastify/'))).toBe(true);
      const forbidden = loaded.filter((u) => /\/compiler\/|ts-morph|\/tsx\/|esbuild|\/typescript\/|\.ts$/.test(u));
      expect(forbidden).toEqual([]);
    } finally {
      server.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('stopping the server', () => {
  it('SIGTERM to the npm start process frees the port within the shutdown deadline', async () => {
    const port = await freePort();
    const server = await spawnServer({
      command: 'npm',
      args: ['start', '--silent', '--', '--root', project.root, '--port', String(port)],
      env: { Server__ShutdownTimeoutSeconds: '3' },
    });
    try {
      expect(server.port).toBe(port);
      server.child.kill('SIGTERM'); // the npm process itself
      expect(await waitUntilPortFree(port, 4_000)).toBe(true);
      expect(await exitWithin(server, 4_000)).not.toBe('timeout');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 90_000);

  it('SIGTERM under load: every accepted request is answered (in-flight ones finish), none is reset; exit 0', async () => {
    const server = await startWharf();
    const pool = new Pool(server.url, { connections: 12 });
    const outcomes: { status?: number; body?: unknown; error?: string; afterSignal: boolean }[] = [];
    let signalled = false;
    const worker = async (): Promise<void> => {
      for (;;) {
        try {
          const res = await pool.request({ path: '/api/demo/Inventory/Categories', method: 'GET', headers: { authorization: `Bearer ${token}` } });
          const body = await res.body.json();
          outcomes.push({ status: res.statusCode, body, afterSignal: signalled });
          if (res.statusCode !== 200) return;
        } catch (error) {
          const code = (error as { code?: string }).code ?? String(error);
          outcomes.push({ error: code, afterSignal: signalled });
          return;
        }
      }
    };
    try {
      const workers = Array.from({ length: 12 }, worker);
      await new Promise((r) => setTimeout(r, 1500));
      signalled = true;
      server.child.kill('SIGTERM');
      await Promise.all(workers);
      expect(await exitWithin(server, 10_000)).toBe(0);
      const resets = outcomes.filter((o) => o.error !== undefined && o.error !== 'ECONNREFUSED');
      expect(resets, `${JSON.stringify(outcomes.map((o) => o.error ?? o.status))}\n${server.output().slice(-4000)}`).toEqual([]);
      for (const o of outcomes.filter((x) => x.status !== undefined && x.status !== 200)) {
        expect(o).toMatchObject({ status: 503, body: SHUTTING_DOWN });
      }
      // the requests in flight when the signal came were finished (answered after it), not dropped
      expect(outcomes.filter((o) => o.afterSignal && o.status === 200).length).toBeGreaterThan(0);
    } finally {
      await pool.destroy();
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('a frozen PostgreSQL (SIGSTOP)', () => {
  it('ends each request in a clean 500 with traceId, keeps the pool usable, and shutdown meets its deadline', async () => {
    const server = await startWharf({
      SqlConnectionPooling__CommandTimeout: '1',
      SqlConnectionPooling__ConnectionTimeout: '1',
      SqlConnectionPooling__MinPoolSize: '0',
      SqlConnectionPooling__MaxPoolSize: '2',
      Server__ShutdownTimeoutSeconds: '3',
      // no background health run during the test: its Database and DatabaseSchema checks would
      // take both pooled connections and freeze on them, so no request would reach a command
      HealthChecks__CacheTimeSeconds: '3600',
    });
    let resume: (() => void) | null = null;
    try {
      // the first health run (started with the server) is over before anything is frozen
      expect([200, 503]).toContain((await fetch(`${server.url}/health`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(15_000) })).status);
      // both pooled connections open before the freeze (two requests at once)
      const warm = await Promise.all([1, 2].map(() => get(server, '/api/demo/Inventory/Products/1')));
      expect(warm.map((answer) => answer.status)).toEqual([200, 200]);
      resume = await freezePostgres(pg.port);
      // more requests than pooled connections: two hang on open connections (the client-side
      // timer destroys them), two wait for a connection (the connection timeout ends the wait)
      const answers = await Promise.all([1, 2, 3, 4].map(() => get(server, '/api/demo/Inventory/Products/1')));
      // and the pool is not exhausted by the hung connections: the next request is answered too
      answers.push(await get(server, '/api/demo/Inventory/Products/2'));
      for (const answer of answers) {
        expect(answer.status).toBe(500);
        expect(answer.body).toEqual({ success: false, error: INTERNAL_ERROR_MESSAGE, traceId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      }
      expect(server.output()).toContain('"event":"sql.command_timeout"');

      const inFlight = get(server, '/api/demo/Inventory/Products/3');
      await new Promise((r) => setTimeout(r, 200));
      server.child.kill('SIGTERM');
      expect(await exitWithin(server, 3_000 + 2_000)).not.toBe('timeout');
      const last = await inFlight;
      expect([500, 503]).toContain(last.status);
      expect(await waitUntilPortFree(server.port, 1_000)).toBe(true);
    } finally {
      resume?.();
      server.child.kill('SIGKILL');
    }
  }, 60_000);

  it('a second SIGTERM exits at once, without waiting for the shutdown deadline', async () => {
    const server = await startWharf({ Server__ShutdownTimeoutSeconds: '60', SqlConnectionPooling__CommandTimeout: '60' });
    let resume: (() => void) | null = null;
    try {
      expect((await get(server, '/api/demo/Inventory/Products/1')).status).toBe(200);
      resume = await freezePostgres(pg.port);
      const hung = get(server, '/api/demo/Inventory/Products/4').catch(() => null);
      await new Promise((r) => setTimeout(r, 200));
      server.child.kill('SIGTERM');
      // draining: the hung query holds it. Past the echo window: a SIGTERM within REPEATED_SIGNAL_MS of
      // the first counts as the same Ctrl-C delivered twice (terminal and npm) and is ignored
      expect(await exitWithin(server, REPEATED_SIGNAL_MS + 500)).toBe('timeout');
      server.child.kill('SIGTERM');
      expect(await exitWithin(server, 5_000)).toBe(128 + 15);
      await hung;
    } finally {
      resume?.();
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});
