/**
 * SQL write benchmark: the same INSERT through Wharf (Table mode, Inventory/Warehouses: body
 * validation, RequiredColumns, ColumnValidation regex, compiled INSERT ... RETURNING, aliases and
 * Mask on the returned row; bearer-token auth and the rate limiter ON) and through a hand-written
 * fastify + pg route (INSERT ... RETURNING *, no auth), same throwaway PostgreSQL, pg pools of 10,
 * loggers off, same run. The unique key on Code is dropped first so every request inserts a row.
 * autocannon (its CLI, in a child process), 32 connections, warm-up then two interleaved rounds.
 * Then batch writes: 1,000 rows as one batch POST (one multi-row INSERT, one transaction) against
 * the same 1,000 rows as single POSTs (32 in flight), rows/s of each and their ratio, same run.
 * Run alone with `npm run bench -- sql-write`.
 */
import { execFile as execFileCb } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { startPostgres } from '../test/setup/postgres.js';
import { startSqlTestServer } from '../test/sql/http-server.js';

const execFile = promisify(execFileCb);
const AUTOCANNON_CLI = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 10);
const CONNECTIONS = 32;
const BODY = JSON.stringify({ Code: 'NL-100', Name: 'Bench', City: 'Delft', Capacity: 10, Notes: 'n' });

interface Result {
  readonly rps: number;
  readonly p99: number;
  readonly errors: number;
}

async function load(url: string, duration: number, headers: Record<string, string>): Promise<Result> {
  const args = [AUTOCANNON_CLI, '-j', '-c', String(CONNECTIONS), '-d', String(duration), '-m', 'POST', '-b', BODY];
  for (const [k, v] of Object.entries({ 'content-type': 'application/json', ...headers })) args.push('-H', `${k}=${v}`);
  const { stdout } = await execFile(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as { requests: { average: number }; latency: { p99: number }; errors: number; non2xx: number };
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function handWritten(pgUrl: string) {
  const pool = new pg.Pool({ connectionString: pgUrl, max: 10 });
  const app = Fastify({ logger: false });
  app.post('/warehouses', async (request, reply) => {
    const b = request.body as Record<string, unknown>;
    const result = await pool.query(
      'INSERT INTO inventory."Warehouses" ("Code", "WarehouseName", "City", "Capacity", "Notes") VALUES ($1, $2, $3, $4, $5) ' +
        'RETURNING "WarehouseId", "Code", "WarehouseName" AS "Name", "City", "Capacity", "ContactCustomerId" AS "ContactId", "IsActive", "Notes"',
      [b['Code'], b['Name'], b['City'], b['Capacity'], b['Notes']],
    );
    const row = { ...result.rows[0], Notes: '***' };
    reply.code(201).header('location', `/warehouses/${row.WarehouseId}`);
    return { success: true, message: 'Record created successfully', result: row, id: row.WarehouseId };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/warehouses`, close: async () => { await app.close(); await pool.end(); } };
}

const BATCH_ROWS = 1000;
const BATCH_ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);

function benchRow(i: number): Record<string, unknown> {
  return { Code: `BT-${String(i % 1000).padStart(3, '0')}`, Name: `Batch ${i}`, City: 'Delft', Capacity: i % 500, Notes: 'n' };
}

/** 1,000 single POSTs, CONNECTIONS in flight at once; wall time in ms. */
async function singles(url: string, headers: Record<string, string>): Promise<number> {
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (next < BATCH_ROWS) {
      const i = next++;
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(benchRow(i)) });
      await r.arrayBuffer();
      if (r.status !== 201) failed++;
    }
  }));
  if (failed > 0) throw new Error(`${failed} single POSTs failed`);
  return performance.now() - started;
}

/** One POST of a 1,000-row JSON array; wall time in ms. */
async function oneBatch(url: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify(Array.from({ length: BATCH_ROWS }, (_, i) => benchRow(i)));
  const started = performance.now();
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const answer = await r.json() as { count?: number };
  if (r.status !== 201 || answer.count !== BATCH_ROWS) throw new Error(`batch POST answered ${r.status}: ${JSON.stringify(answer).slice(0, 200)}`);
  return performance.now() - started;
}

/** Rows/s of a 1,000-row batch against 1,000 single POSTs, interleaved rounds, medians. */
async function batchVersusSingles(url: string, headers: Record<string, string>): Promise<void> {
  await oneBatch(url, headers);
  await singles(url, headers);
  const batchMs: number[] = [];
  const singleMs: number[] = [];
  for (let round = 0; round < BATCH_ROUNDS; round++) {
    batchMs.push(await oneBatch(url, headers));
    singleMs.push(await singles(url, headers));
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const batchRate = BATCH_ROWS / (median(batchMs) / 1000);
  const singleRate = BATCH_ROWS / (median(singleMs) / 1000);
  console.log(`SQL batch write: ${BATCH_ROWS} rows in one POST against ${BATCH_ROWS} single POSTs (${CONNECTIONS} in flight), ${BATCH_ROUNDS} interleaved rounds, medians`);
  console.log(`  one batch     ${batchRate.toFixed(0).padStart(8)} rows/s   (${median(batchMs).toFixed(0)} ms)`);
  console.log(`  single POSTs  ${singleRate.toFixed(0).padStart(8)} rows/s   (${median(singleMs).toFixed(0)} ms)`);
  console.log(`  ratio ${(batchRate / singleRate).toFixed(1)}x rows/s`);
}

export async function runSqlWriteBench(): Promise<void> {
  const db = await startPostgres();
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query('ALTER TABLE inventory."Warehouses" DROP CONSTRAINT "Warehouses_Code_key"');
  const wharf = await startSqlTestServer(db.url, db.port + 1, { logger: false, rateLimiting: true, environments: ['pg'] });
  const hand = await handWritten(db.url);
  try {
    await wharf.app.listen({ host: '127.0.0.1', port: 0 });
    const address = wharf.app.server.address();
    const wharfUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/pg/Inventory/Warehouses`;
    const auth = { authorization: wharf.authorization };
    const post = (url: string, headers: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: BODY }).then(async (r) => ({ status: r.status, body: await r.json() as { result: Record<string, unknown> } }));
    const [a, b] = await Promise.all([post(wharfUrl, auth), post(hand.url, {})]);
    const shape = (x: { result: Record<string, unknown> }) => Object.keys(x.result).sort().join(',');
    console.log(`same status and row shape from both routes: ${a.status === b.status && shape(a.body) === shape(b.body)} (${a.status}, ${b.status})`);
    await load(wharfUrl, 2, auth);
    await load(hand.url, 2, {});
    const w1 = await load(wharfUrl, DURATION_S / 2, auth);
    const h1 = await load(hand.url, DURATION_S / 2, {});
    const h2 = await load(hand.url, DURATION_S / 2, {});
    const w2 = await load(wharfUrl, DURATION_S / 2, auth);
    const mean = (x: Result, y: Result): Result => ({ rps: (x.rps + y.rps) / 2, p99: Math.max(x.p99, y.p99), errors: x.errors + y.errors });
    const w = mean(w1, w2);
    const h = mean(h1, h2);
    const ratio = w.rps / h.rps;
    const rows = (await admin.query('SELECT count(*)::int AS n FROM inventory."Warehouses"')).rows[0] as { n: number };
    console.log(`SQL Table-mode INSERT, ${CONNECTIONS} connections, ${DURATION_S} s each (two interleaved halves; p99 = worse half); wharf with auth + rate limiting`);
    console.log(`  wharf         ${w.rps.toFixed(0).padStart(7)} req/s   p99 ${w.p99} ms   errors/non-2xx ${w.errors}`);
    console.log(`  fastify + pg  ${h.rps.toFixed(0).padStart(7)} req/s   p99 ${h.p99} ms   errors/non-2xx ${h.errors}`);
    console.log(`  rows inserted in total: ${rows.n}`);
    console.log(`  ratio ${ratio.toFixed(2)} (target >= 0.8) ${ratio >= 0.8 ? 'OK' : 'BELOW TARGET'}`);
    await batchVersusSingles(wharfUrl, auth);
  } finally {
    await hand.close();
    await wharf.close();
    await admin.end();
    await db.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runSqlWriteBench();
}
