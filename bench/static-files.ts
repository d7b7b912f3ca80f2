/**
 * Static and Files benchmarks, each against a baseline measured in the same run:
 *  - static: a filtered list ($filter + $orderby + $select + $top=50) over a Static JSON copy of the
 *    10,000 demo products, evaluated in memory, vs the same query on the SQL endpoint (throwaway
 *    PostgreSQL, same server, response cache and rate limiter off). The query repeats, so after the
 *    first request the Static side answers from its per-version match cache (static-query.ts): the
 *    figure is the steady state of a repeated query, not the cost of one scan (about 20-40 ms here);
 *  - files: a 100 MB download from a Files endpoint vs @fastify/static serving the same file.
 * autocannon's CLI in a child process, two interleaved rounds so drift hits both sides.
 * Run alone with `node --import tsx bench/static-files.ts [static|files]`.
 */
import { execFile as execFileCb } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { encodeFileId } from '../runtime/files/file-id.js';
import { createTestServer } from '../runtime/testing/test-server.js';
import { startPostgres } from '../test/setup/postgres.js';
import { startProductsProject } from '../test/static/products-project.js';

const execFile = promisify(execFileCb);
const AUTOCANNON_CLI = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 10);

interface Result {
  readonly rps: number;
  readonly bytesPerSecond: number;
  readonly p99: number;
  readonly errors: number;
}

async function load(url: string, duration: number, connections: number, headers: Record<string, string> = {}): Promise<Result> {
  const args = [AUTOCANNON_CLI, '-j', '-c', String(connections), '-d', String(duration)];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  const { stdout } = await execFile(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as { requests: { average: number }; throughput: { average: number }; latency: { p99: number }; errors: number; non2xx: number };
  return { rps: r.requests.average, bytesPerSecond: r.throughput.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** Warm-up, then a, b, b, a for DURATION_S / 2 each; means of the halves (p99: the worse half). */
async function compare(a: () => Promise<Result>, b: () => Promise<Result>): Promise<[Result, Result]> {
  const mean = (x: Result, y: Result): Result => ({
    rps: (x.rps + y.rps) / 2,
    bytesPerSecond: (x.bytesPerSecond + y.bytesPerSecond) / 2,
    p99: Math.max(x.p99, y.p99),
    errors: x.errors + y.errors,
  });
  const a1 = await a();
  const b1 = await b();
  const b2 = await b();
  const a2 = await a();
  return [mean(a1, a2), mean(b1, b2)];
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

const QUERY = '$select=ProductId,Name,Price&$filter=Price%20gt%20100%20and%20CategoryId%20eq%203&$orderby=Price%20desc&$top=50';

export async function runStaticBench(): Promise<void> {
  const db = await startPostgres();
  const products = await startProductsProject('pg', { Provider: 'postgres', ConnectionString: db.url });
  try {
    const base = await listen(products.app);
    const headers = { authorization: products.authorization };
    const staticUrl = `${base}/api/pg/Diff/Products?${QUERY}`;
    const sqlUrl = `${base}/api/pg/Inventory/Products?${QUERY}`;
    const [s, q] = await Promise.all([staticUrl, sqlUrl].map((url) => fetch(url, { headers }).then((r) => r.json() as Promise<{ value: unknown }>)));
    console.log(`Static JSON rows: ${products.rows}; same rows from both routes: ${JSON.stringify(s!.value) === JSON.stringify(q!.value)}`);
    await load(staticUrl, 2, 10, headers);
    await load(sqlUrl, 2, 10, headers);
    const [st, sql] = await compare(() => load(staticUrl, DURATION_S / 2, 10, headers), () => load(sqlUrl, DURATION_S / 2, 10, headers));
    console.log(`Filtered list ($filter + $orderby + $select + $top=50), 10 connections, ${DURATION_S} s each`);
    console.log(`  static (in memory, 10,000 rows) ${st.rps.toFixed(0).padStart(7)} req/s   p99 ${st.p99} ms   errors ${st.errors}`);
    console.log(`  sql (PostgreSQL)                ${sql.rps.toFixed(0).padStart(7)} req/s   p99 ${sql.p99} ms   errors ${sql.errors}`);
    console.log(`  ratio static / sql ${(st.rps / sql.rps).toFixed(2)}`);
  } finally {
    await products.close();
    await db.stop();
  }
}

const FILE_SIZE = 100 * 1024 * 1024;

export async function runFilesBench(): Promise<void> {
  const server = await createTestServer({
    generated: { endpoints: [{ kind: 'files', routePath: 'files/Bench' }] },
    serverSettings: { Environment: { ServerName: 'bench', AllowedEnvironments: ['demo'] }, RateLimiting: { Enabled: false } },
  });
  const dir = path.join(server.project.root, 'data', 'files', 'demo', 'Bench');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'big.dat'), Buffer.alloc(FILE_SIZE, 0x61));
  const baseline = Fastify({ logger: false });
  await baseline.register(fastifyStatic, { root: dir });
  try {
    const wharfUrl = `${await listen(server.app)}/api/demo/files/Bench/${encodeFileId('demo', 'big.dat')}`;
    const staticUrl = `${await listen(baseline)}/big.dat`;
    const headers = { authorization: `Bearer ${server.token}` };
    const connections = 4;
    await load(wharfUrl, 2, connections, headers);
    await load(staticUrl, 2, connections);
    const [w, s] = await compare(() => load(wharfUrl, DURATION_S / 2, connections, headers), () => load(staticUrl, DURATION_S / 2, connections));
    const mb = (r: Result) => (r.bytesPerSecond / 1024 / 1024).toFixed(0).padStart(6);
    console.log(`100 MB download, ${connections} connections, ${DURATION_S} s each`);
    console.log(`  wharf files      ${mb(w)} MB/s   ${w.rps.toFixed(2)} req/s   p99 ${w.p99} ms   errors ${w.errors}`);
    console.log(`  @fastify/static  ${mb(s)} MB/s   ${s.rps.toFixed(2)} req/s   p99 ${s.p99} ms   errors ${s.errors}`);
    const ratio = w.bytesPerSecond / s.bytesPerSecond;
    console.log(`  ratio ${ratio.toFixed(2)} (target >= 0.9) ${ratio >= 0.9 ? 'OK' : 'BELOW TARGET'}`);
  } finally {
    await baseline.close();
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const wanted = process.argv.slice(2);
  if (wanted.length === 0 || wanted.includes('static')) await runStaticBench();
  if (wanted.length === 0 || wanted.includes('files')) await runFilesBench();
}
