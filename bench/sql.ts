/**
 * SQL read benchmark, measured as users run it: Wharf (real compiler output, the compiled runtime
 * that `wharf start` runs, in its own process; token auth and rate limiting ON with limits far above
 * the load, logging at its default level into /dev/null, response cache off) against a hand-written fastify + pg route and, when it is
 * installed, Platformatic DB (bench/peers.ts), all on the same throwaway PostgreSQL with the demo
 * schema grown to 100,000 products, pools of 32, same run.
 * Two requests: the list ($filter on two columns + $orderby + $top=50) and one record by key.
 * autocannon (its CLI, in a child process), 32 connections, warm-up, then 3 rounds interleaved
 * across the systems; medians of the rounds; ratios against the hand-written route. Each round also
 * reports the server process's CPU time per request (bench/process-cpu.ts), the steadier figure on
 * a shared machine, the database's CPU time per request (every `postgres` process) and the share of
 * the machine left idle (a server that keeps PostgreSQL waiting leaves the cores idle).
 * With MSSQL_URL set (a database loaded with runtime/sql/demo/mssql.sql: 10,000 products, not
 * grown), a second table in the same run: Wharf with an `ms` environment (its own process, the same
 * settings) against a hand-written fastify + mssql route (sql-hand-written-mssql.ts) on that server.
 * The `wharf` process also accepts JWTs of a local OpenID provider (scripts/idp/local-idp.mjs,
 * Auth:Jwt:Issuer/Audience): the `wharf jwt` rows are the same process called with an RS256 JWT
 * (scope `read`) instead of a Wharf token, so their ratio to the `wharf` rows is the cost of JWT
 * verification per request (keys fetched once, then cached).
 * Run alone with `npm run bench -- sql` (BENCH_DURATION=seconds per round, default 8; BENCH_ROUNDS, default 3;
 * BENCH_WORKERS=N runs each Wharf process with Server:Workers N, bench/workers.ts).
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../test/setup/free-port.js';
import { startPostgres, type TestPostgres } from '../test/setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from '../test/sql/http-server.js';
import { load, median, type LoadResult } from './load.js';
import { commandCpuMicros, machineTicks, processCpuMicros, processTreeCpuMicros } from './process-cpu.js';
import { allWorkersUp, BENCH_WORKERS, stopWorkerStores, workerSettings } from './workers.js';
import { handWrittenSql } from './sql-hand-written.js';
import { handWrittenMssql } from './sql-hand-written-mssql.js';
import { startPlatformatic } from './peers.js';
import { stopChild } from './child-process.js';
import { recordTarget } from './targets.js';
import { signToken, startOidcProvider } from '../test/setup/oidc.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 8);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
export const CONNECTIONS = 32;
const POOL = 32;

/** 90,000 more products with the demo's formulas (10,000 come from the seed). */
const GROW = `
INSERT INTO inventory."Products" ("Sku", "ProductName", "CategoryId", "UnitPrice", "UnitsInStock", "CreatedAt")
SELECT 'SKU-' || lpad(i::text, 6, '0'), 'Bench Item ' || i, (i % 20) + 1,
       round(((i * 7919) % 50000) / 100.0 + 0.99, 2), (i * 31) % 500,
       timestamptz '2024-01-01 00:00:00+00' + (i * interval '37 minutes')
FROM generate_series(10001, 100000) AS i;
ANALYZE inventory."Products";`;

interface System {
  readonly name: string;
  readonly list: string;
  readonly byKey: string;
  readonly headers: Record<string, string>;
  /** The server's process id (null: the bench's own process). */
  readonly pid: number | null;
}

/** What one round cost besides the server: the database's CPU per request and the machine's idle share. */
interface RoundCosts {
  readonly serverUs: number;
  readonly dbUs: number;
  readonly idlePercent: number;
}

function line(name: string, r: LoadResult, base: LoadResult | null, costs: RoundCosts, baseCpuUs: number): string {
  const ratio = base ? `  ${(r.rps / base.rps).toFixed(2)}x rps, p99 ${(r.p99 / Math.max(base.p99, 1)).toFixed(2)}x, CPU ${(costs.serverUs / baseCpuUs).toFixed(2)}x` : '  (baseline)';
  const cpu = `server CPU ${costs.serverUs.toFixed(0).padStart(4)} µs/req   db ${costs.dbUs.toFixed(0).padStart(4)} µs/req   idle ${costs.idlePercent.toFixed(0).padStart(2)} %`;
  return `  ${name.padEnd(16)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${String(r.p99).padStart(4)} ms   ${cpu}   errors ${r.errors}${ratio}`;
}

/** Wharf processes started with BENCH_WORKERS: their CPU is that of the primary and its workers. */
const workerServers = new Set<number>();

function serverCpuMicros(pid: number | null): number {
  return pid !== null && workerServers.has(pid) ? processTreeCpuMicros(pid) : processCpuMicros(pid);
}

/** One round of load, with the server's and the database's CPU per request and the machine's idle share. */
async function measuredRound(s: System, kind: 'list' | 'byKey'): Promise<{ result: LoadResult; costs: RoundCosts }> {
  const server = serverCpuMicros(s.pid);
  const db = commandCpuMicros('postgres');
  const machine = machineTicks();
  const result = await load(s[kind], DURATION_S, CONNECTIONS, s.headers);
  const after = machineTicks();
  const requests = Math.max(1, result.total);
  return {
    result,
    costs: {
      serverUs: (serverCpuMicros(s.pid) - server) / requests,
      dbUs: (commandCpuMicros('postgres') - db) / requests,
      idlePercent: (100 * (after.idle - machine.idle)) / Math.max(1, after.total - machine.total),
    },
  };
}

/** The middle value (per-request CPU of the rounds). */
function middle(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

/** The throwaway PostgreSQL with the demo schema grown to 100,000 products. */
export async function startBenchDatabase(): Promise<TestPostgres> {
  // five servers with pools of 32 each: their idle connections stay open between rounds
  const db = await startPostgres({ maxConnections: 250 });
  try {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(GROW);
    await client.end();
    return db;
  } catch (error) {
    await db.stop();
    throw error;
  }
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH_SETTINGS = {
  RateLimiting: { Enabled: true, IpLimit: 1_000_000, IpWindow: 1, TokenLimit: 1_000_000, TokenWindow: 1 },
  Caching: { Enabled: false },
  SqlConnectionPooling: { Enabled: true, MinPoolSize: 1, MaxPoolSize: POOL },
};

export interface BenchWharf {
  readonly base: string;
  readonly authorization: string;
  /** The server process (null when it runs in the bench's process). */
  readonly pid: number | null;
  close(): Promise<void>;
}

/**
 * Wharf in this process (through tsx), for CPU profiles of its code: auth + rate limiting on
 * (budgets above the load), cache off, pools of 32, listening.
 */
export async function startBenchWharfInProcess(db: TestPostgres, logStream: NodeJS.WritableStream): Promise<SqlTestServer & BenchWharf> {
  const wharf = await startSqlTestServer(db.url, db.port + 1, { logStream, settings: BENCH_SETTINGS, environments: ['pg'] });
  await wharf.app.listen({ host: '127.0.0.1', port: 0 });
  const address = wharf.app.server.address();
  return { ...wharf, pid: null, base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/**
 * Wharf as users run it: the same project and settings, served by the compiled runtime
 * (`.wharf/dist/runtime/main.js`, what `wharf start` runs) in its own process, its JSON log lines
 * (default level) into /dev/null. Its one environment is the bench's PostgreSQL, as in a production
 * deployment: an embedded (PGlite) environment beside it would load a second database into the
 * same process while the rounds run. `nodeArgs` go before the script (bench/sql-profile.ts: --cpu-prof);
 * `env` adds settings (`Logging__MinLevel`).
 */
export async function startBenchWharf(db: TestPostgres, nodeArgs: readonly string[] = [], env: Readonly<Record<string, string>> = {}, mssqlUrl?: string): Promise<BenchWharf> {
  const { buildRuntime, DIST_MAIN } = (await import(pathToFileURL(path.join(REPO, 'scripts', 'runtime-dist.mjs')).href)) as {
    buildRuntime(): Promise<unknown>;
    DIST_MAIN: string;
  };
  await buildRuntime();
  const port = await freePort();
  const settings = { ...BENCH_SETTINGS, ...(await workerSettings(db.url, String(port))) };
  const setup = await startSqlTestServer(db.url, db.port + 1, mssqlUrl
    ? { logger: false, settings, environments: ['ms'], mssqlUrl, tokenUsername: `bench-${port}` }
    : { logger: false, settings, environments: ['pg'], tokenUsername: `bench-${port}` });
  await setup.app.close(); // the project, its settings and the token stay for the process below
  const child = spawn(process.execPath, [...nodeArgs, DIST_MAIN, '--root', setup.root, '--port', String(port)], { cwd: REPO, stdio: 'ignore', env: { ...process.env, ...env } });
  const base = `http://127.0.0.1:${port}`;
  const close = async (): Promise<void> => {
    await stopChild(child);
    await rm(setup.root, { recursive: true, force: true });
  };
  for (const started = performance.now(); ; ) {
    const ok = await fetch(`${base}/health/live`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null || performance.now() - started > 60_000) {
      await close();
      throw new Error(`the compiled Wharf did not start (exit ${child.exitCode})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  if (BENCH_WORKERS !== null && child.pid !== undefined) {
    workerServers.add(child.pid);
    await allWorkersUp(child.pid);
  }
  return { base, authorization: setup.authorization, pid: child.pid ?? null, close };
}

/** The two requests, for Wharf and the hand-written route. */
export const WHARF_PATHS = {
  list: '/api/pg/Inventory/Products?$select=ProductId,Name,Price&$filter=Price%20gt%20100%20and%20CategoryId%20eq%203&$orderby=Price%20desc&$top=50',
  byKey: '/api/pg/Inventory/Products/4242',
} as const;
export const HAND_PATHS = { list: '/products?minPrice=100&categoryId=3&top=50', byKey: '/products/4242' } as const;

/** Rounds of both requests over `systems` (the first is Wharf), ratios against `baseline`. */
async function compare(systems: readonly System[], baseline: string, database: string): Promise<void> {
  const first = (await (await fetch(systems[0]!.byKey, { headers: systems[0]!.headers })).json()) as Record<string, unknown>;
  const baseSystem = systems.find((s) => s.name === baseline)!;
  const hand = (await (await fetch(baseSystem.byKey, { headers: baseSystem.headers })).json()) as Record<string, unknown>;
  console.log(`same record from ${systems[0]!.name} and ${baseline}: ${JSON.stringify(first) === JSON.stringify(hand)}`);
  for (const kind of ['list', 'byKey'] as const) {
    for (const s of systems) await load(s[kind], 2, CONNECTIONS, s.headers);
    const results = new Map<string, LoadResult[]>(systems.map((s) => [s.name, []]));
    const costs = new Map<string, RoundCosts[]>(systems.map((s) => [s.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? systems : [...systems].reverse();
      for (const s of order) {
        const { result, costs: cost } = await measuredRound(s, kind);
        results.get(s.name)!.push(result);
        costs.get(s.name)!.push(cost);
      }
    }
    const title = kind === 'list' ? `list: $filter on two columns + $orderby + $top=50 (${database})` : `one record by key (${database})`;
    console.log(`SQL ${title}; ${CONNECTIONS} connections, pools of ${POOL}, median of ${ROUNDS} rounds of ${DURATION_S} s; wharf (compiled runtime, own process${BENCH_WORKERS ? `, Server:Workers ${BENCH_WORKERS}: rate limits in Redis, tokens in PostgreSQL` : ''}) with token auth + rate limiting on, logging at its default level (info; 'warn' rows: Logging:MinLevel warn), cache off`);
    const base = median(results.get(baseline)!);
    const middleCosts = (name: string): RoundCosts => {
      const all = costs.get(name)!;
      return { serverUs: middle(all.map((c) => c.serverUs)), dbUs: middle(all.map((c) => c.dbUs)), idlePercent: middle(all.map((c) => c.idlePercent)) };
    };
    const baseCpu = middleCosts(baseline).serverUs;
    for (const s of systems) console.log(line(s.name, median(results.get(s.name)!), s.name === baseline ? null : base, middleCosts(s.name), baseCpu));
    const w = median(results.get(systems[0]!.name)!);
    // issue 30's targets: list >= 1.0x, by key >= 0.9x the hand-written route, p99 <= 1.5x its p99
    const target = kind === 'list' ? 1.0 : 0.9;
    const cpuRatio = middleCosts(systems[0]!.name).serverUs / baseCpu;
    const ratio = w.rps / base.rps;
    const p99Ratio = w.p99 / Math.max(base.p99, 1);
    console.log(`  wharf/hand-written ${ratio.toFixed(2)} (target >= ${target.toFixed(1)}), p99 ratio ${p99Ratio.toFixed(2)} (target <= 1.5), server CPU per request ${cpuRatio.toFixed(2)}x`);
    const what = `${kind === 'list' ? 'list' : 'by key'} vs hand-written (${database.split(',')[0]})`;
    recordTarget({ bench: 'sql', what, figure: `${ratio.toFixed(2)}x`, target: `>= ${target.toFixed(1)}x`, met: ratio >= target });
    recordTarget({ bench: 'sql', what: `${what}, p99`, figure: `${p99Ratio.toFixed(2)}x the latency`, target: '<= 1.5x', met: p99Ratio <= 1.5 });
    if (results.has('wharf jwt')) {
      const jwtCpu = middleCosts('wharf jwt').serverUs - middleCosts('wharf').serverUs;
      const jwtRps = median(results.get('wharf jwt')!).rps / w.rps;
      console.log(`  JWT (RS256) instead of a Wharf token, same process: ${jwtRps.toFixed(2)}x rps, ${jwtCpu >= 0 ? '+' : ''}${jwtCpu.toFixed(0)} µs server CPU per request`);
    }
    if (results.has('platformatic db')) {
      const versus = (a: string, b: string): string => (median(results.get(a)!).rps / median(results.get(b)!).rps).toFixed(2);
      console.log(`  wharf/platformatic db ${versus('wharf', 'platformatic db')} at their default logging, ${versus('wharf warn', 'platformatic warn')} both at warn`);
    }
  }
}

export async function runSqlBench(): Promise<void> {
  const db = await startBenchDatabase();
  const cleanups: (() => Promise<void>)[] = [async () => db.stop(), stopWorkerStores];
  try {
    const audience = 'http://wharf.bench/api';
    const idp = await startOidcProvider({ audience, scopes: ['read'], clients: [] });
    cleanups.unshift(() => idp.close());
    const wharf = await startBenchWharf(db, [], { Auth__Jwt__Issuer: idp.issuer, Auth__Jwt__Audience: audience });
    cleanups.unshift(() => wharf.close());
    const jwt = await signToken(idp, audience, { sub: 'bench', scope: 'read', exp: Math.floor(Date.now() / 1000) + 24 * 3600 });
    const quiet = await startBenchWharf(db, [], { Logging__MinLevel: 'warn' });
    cleanups.unshift(() => quiet.close());
    const hand = await handWrittenSql(db.url, POOL);
    cleanups.unshift(() => hand.close());

    const systems: System[] = [
      { name: 'wharf', list: wharf.base + WHARF_PATHS.list, byKey: wharf.base + WHARF_PATHS.byKey, headers: { authorization: wharf.authorization }, pid: wharf.pid },
      { name: 'fastify + pg', list: hand.base + HAND_PATHS.list, byKey: hand.base + HAND_PATHS.byKey, headers: {}, pid: null },
      { name: 'wharf jwt', list: wharf.base + WHARF_PATHS.list, byKey: wharf.base + WHARF_PATHS.byKey, headers: { authorization: `Bearer ${jwt}` }, pid: wharf.pid },
      { name: 'wharf warn', list: quiet.base + WHARF_PATHS.list, byKey: quiet.base + WHARF_PATHS.byKey, headers: { authorization: quiet.authorization }, pid: quiet.pid },
    ];
    // each product at its default logging (as its users run it), and each at `warn` (no line per request)
    const plt = await startPlatformatic(db.url, POOL);
    const pltQuiet = plt ? await startPlatformatic(db.url, POOL, 'warn') : null;
    if (plt && pltQuiet) {
      cleanups.unshift(() => plt.close(), () => pltQuiet.close());
      systems.push({ name: 'platformatic db', list: plt.list, byKey: plt.byKey, headers: {}, pid: plt.pid });
      systems.push({ name: 'platformatic warn', list: pltQuiet.list, byKey: pltQuiet.byKey, headers: {}, pid: pltQuiet.pid });
    } else {
      await plt?.close();
      console.log('  (Platformatic DB not installed: `npm run bench:peers` installs it into bench/.peers; skipped)');
    }

    await compare(systems, 'fastify + pg', 'PostgreSQL, 100,000 products');

    const mssqlUrl = process.env['MSSQL_URL'];
    if (mssqlUrl) {
      const wharfMs = await startBenchWharf(db, [], {}, mssqlUrl);
      cleanups.unshift(() => wharfMs.close());
      const handMs = await handWrittenMssql(mssqlUrl, POOL);
      cleanups.unshift(() => handMs.close());
      const ms = (p: string) => p.replace('/api/pg/', '/api/ms/');
      await compare([
        { name: 'wharf mssql', list: wharfMs.base + ms(WHARF_PATHS.list), byKey: wharfMs.base + ms(WHARF_PATHS.byKey), headers: { authorization: wharfMs.authorization }, pid: wharfMs.pid },
        { name: 'fastify + mssql', list: handMs.base + HAND_PATHS.list, byKey: handMs.base + HAND_PATHS.byKey, headers: {}, pid: null },
      ], 'fastify + mssql', 'SQL Server (MSSQL_URL), 10,000 products');
    } else {
      console.log('  (MSSQL_URL not set: no SQL Server rows)');
    }
  } finally {
    for (const c of cleanups) await c().catch(() => undefined);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runSqlBench();
}
