/**
 * Proxy benchmark: a Wharf Proxy endpoint against a bare undici forwarder in fastify (one
 * keep-alive Pool, streams the body), both in front of the same loopback upstream (in this
 * process), same run, 32 connections. Wharf runs as users run it: `wharf start`'s compiled runtime
 * (`.wharf/dist/runtime/main.js`) in its own process, token auth and rate limiting on (budgets
 * above the load), cache off, logging at its default level (`info`, into /dev/null); the forwarder
 * runs in its own process too (bench/bare-forwarder.ts). CPU per request is each server
 * process's own. Small JSON and 1 MB bodies; plus the small case with Retry + FallbackUrls
 * configured but never triggered. (@fastify/http-proxy is not installed, so it is not compared.)
 * Prints req/s, p99 and ratios. Run alone with `npm run bench -- proxy`; BENCH_DURATION (seconds,
 * default 8) per measurement, BENCH_ROUNDS (default 3).
 * BENCH_WORKERS=N adds a row: the same small case served with Server:Workers N, rate limits in
 * Redis and tokens in PostgreSQL (bench/workers.ts); its CPU is the server's primary and workers.
 * Where Wharf's CPU goes (docs/performance.md): `GET /health/live` of the same process (no token, no
 * upstream), and a second `wharf start` with the per-request features off (MINIMAL: rate limiting,
 * the `info` request line, metrics; the token is still checked) for the small case and /health/live.
 * For comparison only (not the target): a hand-written forwarder with the same per-request duties
 * (bench/duty-forwarder.ts: token hash check, rate limits and their headers, request id, one info
 * line, header rules, X-Forwarded-*, ETag, a per-route count) on the small case.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { bareForwarder } from './bare-forwarder.js';
import { buildServer } from '../runtime/server.js';
import { createTempProject } from '../runtime/testing/generated-fixture.js';
import { autocannon } from './autocannon.js';
import { stopChild } from './child-process.js';
import type { LoadResult } from './autocannon.js';
import { freePort } from '../test/setup/free-port.js';
import { startPostgres } from '../test/setup/postgres.js';
import { processTreeCpuMicros } from './process-cpu.js';
import { recordTarget } from './targets.js';
import { allWorkersUp, BENCH_WORKERS, stopWorkerStores, workerSettings } from './workers.js';
import { gatewayOf } from '../runtime/gateway-handle.js';

const SECONDS = Number(process.env['BENCH_DURATION'] ?? 8);
const CONNECTIONS = 32;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SMALL = Buffer.from(JSON.stringify({ id: 42, name: 'Widget', price: 9.95, tags: ['a', 'b'], stock: { warehouse: 'RTM', count: 17 } }));
const LARGE = Buffer.from(JSON.stringify({ blob: 'x'.repeat(1024 * 1024 - 12) }));

export async function startUpstream(): Promise<{ origin: string; close: () => void }> {
  const server = createServer((req, res) => {
    const body = req.url?.startsWith('/large') ? LARGE : SMALL;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

export { bareForwarder };

/** The bench's project: three Proxy endpoints; `settings` and `environments` as given. */
function proxyProject(origin: string, fallback: string, settings: Record<string, unknown>, environments: Record<string, Record<string, string>>) {
  return createTempProject({
    generated: {
      endpoints: [
        { kind: 'proxy', routePath: 'Small', methods: ['GET'], overrides: { url: `${origin}/small` } },
        { kind: 'proxy', routePath: 'Large', methods: ['GET'], overrides: { url: `${origin}/large` } },
        { kind: 'proxy', routePath: 'SmallRetry', methods: ['GET'], overrides: { url: `${origin}/small`, retry: { attempts: 3, delayMs: 100 }, fallbackUrls: [`${fallback}/small`] } },
      ],
    },
    serverSettings: {
      Environment: { AllowedEnvironments: ['demo'] },
      RateLimiting: { Enabled: true, IpLimit: 1_000_000, IpWindow: 1, TokenLimit: 1_000_000, TokenWindow: 1 },
      Caching: { Enabled: false },
      ...settings,
    },
    environments,
  });
}

/** A server child process: its URL, its pid (CPU), and how to stop it. */
export interface ChildServer {
  readonly url: string;
  readonly pid: number;
  close(): Promise<void>;
}

/** A forwarder in its own process (bench/bare-forwarder.ts, bench/duty-forwarder.ts with the token it accepts). */
async function forwarderProcess(script: string, ...args: string[]): Promise<ChildServer> {
  return forwarderProcessWith(script, args, {});
}

/** forwarderProcess with variables added to its environment (DUTY_OFF of bench/duty-forwarder.ts). */
export async function forwarderProcessWith(script: string, args: readonly string[], env: Readonly<Record<string, string>>): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  return { url, pid: child.pid!, close: () => stopChild(child) };
}

/**
 * `wharf start` on the bench's project: the compiled runtime in its own process. `settings`,
 * `environments` and `cleanup` for the BENCH_WORKERS variant (PostgreSQL token store, Redis).
 */
export async function wharfProcess(
  origin: string,
  fallback: string,
  settings: Record<string, unknown> = {},
  environments: Record<string, Record<string, string>> = { demo: { Provider: 'embedded' } },
  cleanup: () => Promise<void> = async () => undefined,
  nodeArgs: readonly string[] = [],
): Promise<ChildServer & { token: string }> {
  const project = await proxyProject(origin, fallback, settings, environments);
  const app = await buildServer({ generatedDir: project.generatedDir, environmentsDir: project.environmentsDir, dataDir: path.join(project.root, 'data'), logger: false });
  const { token } = await gatewayOf(app).access.tokens.create({ username: 'bench' });
  await app.close(); // the project and the token stay for the process below
  const { buildRuntime, DIST_MAIN } = (await import(pathToFileURL(path.join(import.meta.dirname, '..', 'scripts', 'runtime-dist.mjs')).href)) as { buildRuntime(): Promise<unknown>; DIST_MAIN: string };
  await buildRuntime();
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, DIST_MAIN, '--root', project.root, '--port', String(port), '--host', '127.0.0.1'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const close = async (): Promise<void> => {
    await stopChild(child);
    await project.cleanup();
    await cleanup();
  };
  for (const started = Date.now(); !(await fetch(`${url}/health/live`).then((r) => r.ok, () => false)); ) {
    if (child.exitCode !== null || Date.now() - started > 60_000) {
      await close();
      throw new Error(`wharf start did not start (exit ${child.exitCode})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, token, pid: child.pid!, close };
}

/** BENCH_WORKERS: the same project with Server:Workers N, on a PostgreSQL token store and a Redis. */
async function wharfWorkers(origin: string, fallback: string): Promise<ChildServer & { token: string }> {
  const db = await startPostgres();
  const server = await wharfProcess(origin, fallback, await workerSettings(db.url, 'proxy'), { demo: { Provider: 'postgres', ConnectionString: db.url } }, async () => {
    await stopWorkerStores();
    await db.stop();
  });
  await allWorkersUp(server.pid);
  return server;
}

/** The per-request features the "minimal" rows turn off. */
const MINIMAL = { RateLimiting: { Enabled: false }, Logging: { MinLevel: 'warn' }, Metrics: { Enabled: false } };

export function line(name: string, r: LoadResult & { cpuUsPerRequest: number }): string {
  return `${name.padEnd(38)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ${r.mbPerSecond.toFixed(1).padStart(7)} MB/s  cpu ${r.cpuUsPerRequest.toFixed(0).padStart(6)} µs/req  errors ${r.errors}`;
}

/** What a bench starts: `started(server)` remembers it, so that a failure further on still stops it (no server outlives the bench). */
export type Started = <T extends { close(): unknown }>(server: T) => T;

/** Runs `bench` and then stops, newest first, every server it passed to `started`. */
export async function withServers(bench: (started: Started) => Promise<void>): Promise<void> {
  const stops: (() => unknown)[] = [];
  try {
    await bench((server) => {
      stops.push(() => server.close());
      return server;
    });
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/** A warm-up, then `seconds` of load: throughput, plus the CPU time of the server's process (primary and workers) per request, steadier than req/s on a busy machine. */
export async function measureServer(url: string, headers: Record<string, string>, pid: number, seconds: number): Promise<LoadResult & { cpuUsPerRequest: number }> {
  await autocannon(url, { connections: CONNECTIONS, seconds: 2, headers });
  const before = processTreeCpuMicros(pid);
  const result = await autocannon(url, { connections: CONNECTIONS, seconds, headers });
  return { ...result, cpuUsPerRequest: (processTreeCpuMicros(pid) - before) / Math.max(1, result.total) };
}

export async function runProxyBench(): Promise<void> {
  await withServers(async (started) => {
    const upstream = started(await startUpstream());
    const standby = started(await startUpstream());
    const bare = started(await forwarderProcess('bare-forwarder.ts', upstream.origin));
    const gw = started(await wharfProcess(upstream.origin, standby.origin));
    const duty = started(await forwarderProcess('duty-forwarder.ts', upstream.origin, gw.token));
    const minimal = started(await wharfProcess(upstream.origin, standby.origin, MINIMAL));
    const workers = BENCH_WORKERS === null ? null : started(await wharfWorkers(upstream.origin, standby.origin));
    await measure(bare, duty, gw, minimal, workers);
  });
}

/** The rounds over every case, the ratios and the targets. */
async function measure(bare: ChildServer, duty: ChildServer, gw: ChildServer & { token: string }, minimal: ChildServer & { token: string }, workers: (ChildServer & { token: string }) | null): Promise<void> {
  const auth = { authorization: `Bearer ${gw.token}` };
  const cases: [string, string, Record<string, string>][] = [
    ['bare undici forwarder, small', `${bare.url}/small`, {}],
    ['wharf proxy, small', `${gw.url}/api/demo/Small`, auth],
    ['duty forwarder (same duties), small', `${duty.url}/small`, auth],
    ['wharf proxy + retry/fallback, small', `${gw.url}/api/demo/SmallRetry`, auth],
    ['bare undici forwarder, 1 MB', `${bare.url}/large`, {}],
    ['wharf proxy, 1 MB', `${gw.url}/api/demo/Large`, auth],
    ['wharf GET /health/live', `${gw.url}/health/live`, {}],
    ['minimal wharf proxy, small', `${minimal.url}/api/demo/Small`, { authorization: `Bearer ${minimal.token}` }],
    ['minimal wharf GET /health/live', `${minimal.url}/health/live`, {}],
  ];
  const workersCase = workers ? `wharf start, Server:Workers ${BENCH_WORKERS}, small` : null;
  const pids = new Map<string, number>(cases.map(([name]) => [name, name.startsWith('bare') ? bare.pid : name.startsWith('duty') ? duty.pid : name.startsWith('minimal') ? minimal.pid : gw.pid]));
  if (workers && workersCase) {
    cases.splice(2, 0, [workersCase, `${workers.url}/api/demo/Small`, { authorization: `Bearer ${workers.token}` }]);
    pids.set(workersCase, workers.pid);
  }
  const best = new Map<string, LoadResult & { cpuUsPerRequest: number }>();
  console.log(`${CONNECTIONS} connections, ${SECONDS} s per measurement, ${ROUNDS} interleaved rounds (best kept), small body ${SMALL.length} B, large body ${LARGE.length} B; wharf: compiled runtime in its own process, token auth + rate limiting on, cache off, logging info; forwarder: its own process; cpu = the server process's own`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, url, headers] of cases) {
      const result = await measureServer(url, headers, pids.get(name)!, SECONDS);
      console.log(line(`${name} #${round}`, result));
      if ((best.get(name)?.rps ?? -1) < result.rps) best.set(name, result);
    }
  }
  const rps = (name: string) => best.get(name)!.rps;
  const small = rps('wharf proxy, small') / rps('bare undici forwarder, small');
  const smallP99 = best.get('wharf proxy, small')!.p99 / Math.max(best.get('bare undici forwarder, small')!.p99, 1);
  console.log(`ratio small  wharf/bare: ${small.toFixed(2)} (target >= 0.85), p99 ratio ${smallP99.toFixed(2)}`);
  recordTarget({ bench: 'proxy', what: 'small vs bare undici forwarder', figure: `${small.toFixed(2)}x`, target: '>= 0.85x', met: small >= 0.85 });
  recordTarget({ bench: 'proxy', what: '1 MB vs bare undici forwarder', figure: `${(rps('wharf proxy, 1 MB') / rps('bare undici forwarder, 1 MB')).toFixed(2)}x`, target: '>= 0.8x', met: rps('wharf proxy, 1 MB') / rps('bare undici forwarder, 1 MB') >= 0.8 });
  console.log(`ratio 1 MB   wharf/bare: ${(rps('wharf proxy, 1 MB') / rps('bare undici forwarder, 1 MB')).toFixed(2)} (target >= 0.8)`);
  const cpu = (name: string) => best.get(name)!.cpuUsPerRequest;
  const duties = 'duty forwarder (same duties), small';
  console.log(
    `for comparison, not the target: wharf/forwarder with the same duties (bench/duty-forwarder.ts): small ${(rps('wharf proxy, small') / rps(duties)).toFixed(2)}x req/s, ` +
      `p99 ${(best.get('wharf proxy, small')!.p99 / Math.max(best.get(duties)!.p99, 1)).toFixed(2)}x, cpu ${(cpu('wharf proxy, small') / cpu(duties)).toFixed(2)}x (its cpu ${cpu(duties).toFixed(0)} µs/req)`,
  );
  console.log(`cpu per request wharf/bare: small ${(cpu('wharf proxy, small') / cpu('bare undici forwarder, small')).toFixed(2)}x, 1 MB ${(cpu('wharf proxy, 1 MB') / cpu('bare undici forwarder, 1 MB')).toFixed(2)}x; retry configured vs not: ${(cpu('wharf proxy + retry/fallback, small') / cpu('wharf proxy, small')).toFixed(2)}x`);
  if (workersCase) console.log(`${workersCase}: ${(rps(workersCase) / rps('bare undici forwarder, small')).toFixed(2)}x the bare forwarder, cpu ${(cpu(workersCase) / cpu('bare undici forwarder, small')).toFixed(2)}x (own process, rate limits in Redis: compare BENCH_WORKERS=1 with 2)`);
  console.log(
    `where Wharf's CPU goes (µs per request): /health/live ${cpu('wharf GET /health/live').toFixed(0)}, small ${cpu('wharf proxy, small').toFixed(0)}; ` +
      `minimal (${JSON.stringify(MINIMAL)}): /health/live ${cpu('minimal wharf GET /health/live').toFixed(0)}, small ${cpu('minimal wharf proxy, small').toFixed(0)}; forwarder ${cpu('bare undici forwarder, small').toFixed(0)}`,
  );
  console.log(`retry/fallback configured, not triggered: ${((1 - rps('wharf proxy + retry/fallback, small') / rps('wharf proxy, small')) * 100).toFixed(1)} % slower (target < 5 %)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runProxyBench();
