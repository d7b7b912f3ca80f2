/**
 * Server:Workers as users run it: `wharf start` of a built project (compiled runtime) on a real
 * PostgreSQL (data and token store) and a real Redis. Two workers serve one port (the request log
 * lines of two pids, neither the primary's); the banner is printed once; a rate limit is counted
 * once and a revocation reaches both workers at once (Redis); SIGTERM to the primary
 * under load answers every accepted request and exits 0 with no worker left; a killed worker is
 * replaced; a second signal forces the exit; a bad value, or two workers without the shared
 * stores, stop the start with one line naming the key.
 */
import { execFile as execFileCb } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startRedis, type TestRedis } from '../setup/redis.js';
import type { TempProject } from '../support/project.js';
import { REPEATED_SIGNAL_MS } from '../../runtime/lifecycle/graceful-shutdown.js';
import { exitWithin, postgresProject, spawnServer, WHARF, type ServerProcess } from './server-process.js';

const execFile = promisify(execFileCb);

let pg: TestPostgres;
let redis: TestRedis;
let project: TempProject;
let shared: Record<string, string>;
let token: string;

beforeAll(async () => {
  [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  project = await postgresProject(pg.url);
  shared = {
    Redis__Url: redis.url,
    Auth__Store__Provider: 'Postgres',
    Auth__Store__ConnectionString: pg.url,
    Caching__Provider: 'Redis',
    HEALTHCHECK_SKIP_PROXY: 'true',
    // on in the one test about it: its counters are in the Redis every test shares
    RateLimiting__Enabled: 'false',
  };
  const { stdout } = await execFile(process.execPath, [WHARF, 'token', 'create', '--username', 'workers'], { cwd: project.root, env: { ...process.env, ...shared } });
  token = /whf_\S+/.exec(stdout)![0];
}, 180_000);

afterAll(async () => {
  await project?.remove();
  await Promise.all([redis?.stop(), pg?.stop()]);
});

/** `wharf start` with two workers; resolves once both serve (the primary's `workers.started` line). */
async function startWorkers(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await spawnServer({
    command: process.execPath,
    args: [WHARF, 'start', '--root', project.root, '--port', '0'],
    env: { ...shared, Server__Workers: '2', ...env },
  });
  for (const until = Date.now() + 60_000; !server.output().includes('"event":"workers.started"'); ) {
    if (Date.now() > until) throw new Error(`the workers did not start:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return server;
}

interface LogLine {
  readonly pid: number;
  readonly event?: string;
  readonly url?: string;
  readonly statusCode?: number;
  readonly workerPid?: number;
  readonly pids?: number[];
  readonly time?: number;
}

function logLines(server: ServerProcess): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

function workerPids(server: ServerProcess): number[] {
  return logLines(server).filter((line) => line.event === 'workers.started').at(-1)?.pids ?? [];
}

/** One GET on a new connection each (the primary hands connections to the workers in turn). */
function getOnNewConnection(url: string, bearer: string = token): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { authorization: `Bearer ${bearer}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Server:Workers 2', () => {
  it('serves one port from two worker processes, the primary serving none, and prints the banner once', async () => {
    const server = await startWorkers();
    try {
      const pids = workerPids(server);
      expect(pids).toHaveLength(2);
      expect(pids).not.toContain(server.child.pid);
      const statuses = await Promise.all(Array.from({ length: 8 }, (_, i) => getOnNewConnection(`${server.url}/api/demo/Inventory/Products/${i + 1}`)));
      expect(statuses).toEqual(Array(8).fill(200));
      await new Promise((r) => setTimeout(r, 300)); // the request lines are written per event-loop turn
      const served = logLines(server).filter((line) => line.url?.startsWith('/api/demo/Inventory/Products/') && line.statusCode === 200);
      expect(served).toHaveLength(8);
      expect(new Set(served.map((line) => line.pid))).toEqual(new Set(pids));
      // the banner and the first console administrator (the store is empty): once, not per worker
      expect(server.output().match(/Wharf is serving \d+ endpoints/g), server.output()).toHaveLength(1);
      expect(server.output().match(/Created the first console administrator \(shown once/g), server.output()).toHaveLength(1);
      expect(server.output().match(/"msg":"Created the first console administrator/g), server.output()).toHaveLength(1);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('counts a rate limit once for both workers (through Redis)', async () => {
    const server = await startWorkers({ RateLimiting__Enabled: 'true', RateLimiting__TokenLimit: '10', RateLimiting__TokenWindow: '600', Redis__KeyPrefix: `wharf-workers-${Date.now()}:` });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) statuses.push(await getOnNewConnection(`${server.url}/api/demo/Inventory/Products/3`));
      await new Promise((r) => setTimeout(r, 300));
      const servedBy = new Set(logLines(server).filter((line) => line.url === '/api/demo/Inventory/Products/3').map((line) => line.pid));
      expect(servedBy).toEqual(new Set(workerPids(server)));
      // per worker, each would have allowed its 7 of the 14
      expect(statuses).toEqual([...Array(10).fill(200), ...Array(4).fill(429)]);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('a revoked token is refused by both workers at once, though each had verified it (through Redis)', async () => {
    const server = await startWorkers({ Auth__VerificationCacheSeconds: '60' });
    try {
      const created = await execFile(process.execPath, [WHARF, 'token', 'create', '--username', 'revoked'], { cwd: project.root, env: { ...process.env, ...shared } });
      const revoked = /whf_\S+/.exec(created.stdout)![0];
      const id = /Token (\d+) created/.exec(created.stdout)![1]!;
      const get = (n: number): Promise<number[]> =>
        Promise.all(Array.from({ length: n }, () => getOnNewConnection(`${server.url}/api/demo/Inventory/Products/5`, revoked)));
      expect(await get(6)).toEqual(Array(6).fill(200));
      await new Promise((r) => setTimeout(r, 300));
      const verifiedBy = new Set(logLines(server).filter((line) => line.url === '/api/demo/Inventory/Products/5').map((line) => line.pid));
      expect(verifiedBy).toEqual(new Set(workerPids(server)));
      await execFile(process.execPath, [WHARF, 'token', 'revoke', id], { cwd: project.root, env: { ...process.env, ...shared } });
      await new Promise((r) => setTimeout(r, 500)); // the announcement's way through Redis
      // within the verification cache's 60 s: only the announcement can have reached both
      expect(await get(6)).toEqual(Array(6).fill(401));
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  // The primary holds the port until the last worker has stopped accepting (node:cluster): a
  // connection that reaches it in that instant is reset rather than refused, but no worker ever
  // took it. What must hold: every request a worker took is answered and reaches the client.
  it('SIGTERM to the primary under load: every request a worker took is answered, exit 0, no worker left', async () => {
    const server = await startWorkers({ Server__ShutdownDelaySeconds: '1', Server__ShutdownTimeoutSeconds: '10' });
    const pids = workerPids(server);
    const pool = new Pool(server.url, { connections: 8 });
    const outcomes: { status?: number; error?: string; afterSignal: boolean; at: number }[] = [];
    let signalled = false;
    const client = async (): Promise<void> => {
      for (;;) {
        try {
          const res = await pool.request({ path: '/api/demo/Inventory/Products/1', method: 'GET', headers: { authorization: `Bearer ${token}` } });
          await res.body.text();
          outcomes.push({ status: res.statusCode, afterSignal: signalled, at: Date.now() });
          if (res.statusCode !== 200) return;
        } catch (error) {
          outcomes.push({ error: (error as { code?: string }).code ?? String(error), afterSignal: signalled, at: Date.now() });
          return;
        }
      }
    };
    try {
      const clients = Array.from({ length: 8 }, client);
      await new Promise((r) => setTimeout(r, 1000));
      signalled = true;
      server.child.kill('SIGTERM');
      await Promise.all(clients);
      expect(await exitWithin(server, 15_000)).toBe(0);
      const lines = logLines(server);
      // every answer a worker logged reached the client, and the client got no answer no worker logged
      const answered = lines.filter((line) => line.url === '/api/demo/Inventory/Products/1' && line.statusCode !== undefined).length;
      expect(outcomes.filter((o) => o.status !== undefined).length).toBe(answered);
      // a failed connection only once no worker accepted any more (the primary's last instant)
      const lastStopped = Math.max(...lines.filter((line) => line.event === 'server.stopped_accepting').map((line) => line.time ?? 0));
      const failures = outcomes.filter((o) => o.error !== undefined);
      expect(failures.filter((o) => !['ECONNREFUSED', 'ECONNRESET'].includes(o.error!)), JSON.stringify(failures)).toEqual([]);
      expect(failures.filter((o) => o.at < lastStopped), `${JSON.stringify(outcomes.map((o) => o.error ?? o.status))}\n${server.output().slice(-4000)}`).toEqual([]);
      expect(outcomes.filter((o) => o.status !== undefined && o.status !== 200 && o.status !== 503)).toEqual([]);
      // served during the shutdown delay (the workers unready, still answering)
      expect(outcomes.filter((o) => o.afterSignal && o.status === 200).length).toBeGreaterThan(0);
      const stopped = logLines(server).filter((line) => line.event === 'server.stopped').map((line) => line.pid);
      expect(new Set(stopped)).toEqual(new Set(pids));
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      await pool.destroy();
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('a killed worker is logged and replaced; the port keeps serving', async () => {
    const server = await startWorkers();
    try {
      const [victim, survivor] = workerPids(server) as [number, number];
      process.kill(victim, 'SIGKILL');
      for (const until = Date.now() + 30_000; !server.output().includes('"event":"workers.replaced"'); ) {
        if (Date.now() > until) throw new Error(`no replacement:\n${server.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const exited = logLines(server).find((line) => line.event === 'workers.exited');
      expect(exited).toMatchObject({ workerPid: victim, pid: server.child.pid });
      const replacement = logLines(server).find((line) => line.event === 'workers.replaced')!.workerPid!;
      expect([victim, survivor, server.child.pid]).not.toContain(replacement);
      const statuses = await Promise.all(Array.from({ length: 6 }, () => getOnNewConnection(`${server.url}/api/demo/Inventory/Products/2`)));
      expect(statuses).toEqual(Array(6).fill(200));
      await new Promise((r) => setTimeout(r, 300));
      const servedBy = new Set(logLines(server).filter((line) => line.url === '/api/demo/Inventory/Products/2').map((line) => line.pid));
      expect(servedBy).toEqual(new Set([survivor, replacement]));
      // a replacement that ends soon again is replaced later: the delay doubles, no tight loop
      process.kill(replacement, 'SIGKILL');
      for (const until = Date.now() + 30_000; logLines(server).filter((line) => line.event === 'workers.replaced').length < 2; ) {
        if (Date.now() > until) throw new Error(`no second replacement:\n${server.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const delays = logLines(server).filter((line) => line.event === 'workers.exited').map((line) => (line as { restartInMs?: number }).restartInMs);
      expect(delays).toEqual([100, 200]);
      const last = logLines(server).filter((line) => line.event === 'workers.replaced').at(-1)!.workerPid!;
      server.child.kill('SIGTERM');
      expect(await exitWithin(server, 15_000)).toBe(0);
      expect([survivor, replacement, last].filter(alive)).toEqual([]);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('a second signal to the primary exits at once, workers included', async () => {
    const server = await startWorkers({ Server__ShutdownDelaySeconds: '30', Server__ShutdownTimeoutSeconds: '60' });
    try {
      const pids = workerPids(server);
      server.child.kill('SIGTERM');
      // the workers serve on, unready, for the delay. Past the echo window: a SIGTERM within
      // REPEATED_SIGNAL_MS of the first counts as the same Ctrl-C delivered twice and is ignored
      expect(await exitWithin(server, REPEATED_SIGNAL_MS + 500)).toBe('timeout');
      server.child.kill('SIGTERM');
      expect(await exitWithin(server, 3_000)).toBe(143);
      for (const until = Date.now() + 3_000; pids.some(alive) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);
});

describe('Server:Workers refused at start', () => {
  it('a worker that cannot start (its port taken) ends the start with its exit code and message; the primary logs at Logging:MinLevel', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const run = execFile(process.execPath, [WHARF, 'start', '--root', project.root, '--port', String(port), '--host', '127.0.0.1'], { cwd: project.root, env: { ...process.env, ...shared, Server__Workers: '2', Logging__MinLevel: 'warn' }, timeout: 60_000 });
      const failure = (await run.then(() => null, (error: unknown) => error)) as { code?: number; stderr?: string; stdout?: string } | null;
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toContain('EADDRINUSE');
      expect(failure?.stdout).toContain('"event":"workers.start_failed"');
      expect(failure?.stdout).not.toContain('"event":"workers.starting"'); // info, below Logging:MinLevel warn
      expect(failure?.stdout).not.toContain('Wharf is serving');
    } finally {
      blocker.close();
    }
  }, 90_000);

  it.each([
    ['a bad value', { Server__Workers: 'many' }, "wharf: Setting 'Server:Workers' (from environment variable Server__Workers) must be a whole number or auto"],
    ['two workers without Redis', { Server__Workers: '2', Redis__Url: '' }, "wharf: Setting 'Server:Workers' (from environment variable Server__Workers) is 2: Redis:Url must be set"],
  ] as const)('%s: exit 2 with one line naming the key', async (_name, env, line) => {
    const run = execFile(process.execPath, [WHARF, 'start', '--root', project.root, '--port', '0'], { cwd: project.root, env: { ...process.env, ...shared, ...env }, timeout: 30_000 });
    const failure = (await run.then(() => null, (error: unknown) => error)) as { code?: number; stderr?: string; stdout?: string } | null;
    expect(failure?.code).toBe(2);
    expect(failure?.stderr?.trim().startsWith(line)).toBe(true);
    expect(failure?.stderr?.trim().split('\n')).toHaveLength(1);
    expect(failure?.stdout).not.toContain('Wharf is serving');
  }, 60_000);
});
