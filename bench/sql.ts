/**
 * SQL read benchmark: the same list request ($filter + $orderby + $top=50) against the Wharf SQL
 * path (real compiler output + real runtime pipeline + SQL handler) and a hand-written fastify + pg
 * route, both on the same throwaway PostgreSQL with the demo data, pg pools of 10, loggers off,
 * same run. autocannon (its CLI, in a child process), 10 connections, warm-up then measurement;
 * prints req/s, p99, ratio.
 * Run alone with `node --import tsx bench/sql.ts`.
 */
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { startPostgres } from '../test/setup/postgres.js';
import { startSqlTestServer } from '../test/sql/http-server.js';
import { load as loadWith, type LoadResult } from './autocannon.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 10);
const CONNECTIONS = 10;
const WHARF_PATH = '/api/pg/Inventory/Products?$select=ProductId,Name,Price&$filter=Price%20gt%20100%20and%20CategoryId%20eq%203&$orderby=Price%20desc&$top=50';
const HAND_PATH = '/products?minPrice=100&categoryId=3&top=50';

type Result = LoadResult;
const load = (url: string, duration: number, headers: Record<string, string> = {}): Promise<LoadResult> => loadWith(url, duration, CONNECTIONS, headers);

async function handWritten(pgUrl: string) {
  const pool = new pg.Pool({ connectionString: pgUrl, max: 10 });
  const app = Fastify({ logger: false });
  app.get('/products', async (request) => {
    const q = request.query as Record<string, string>;
    const top = Number(q['top'] ?? 50);
    const result = await pool.query(
      'SELECT "ProductId", "ProductName" AS "Name", "UnitPrice" AS "Price" FROM inventory."Products" ' +
        'WHERE "UnitPrice" > $1 AND "CategoryId" = $2 ORDER BY "UnitPrice" DESC, "ProductId" ASC LIMIT $3',
      [q['minPrice'], q['categoryId'], top + 1],
    );
    const rows = result.rows.map((r: { ProductId: number; Name: string; Price: string }) => ({ ...r, Price: Number(r.Price) }));
    const more = rows.length > top;
    const value = rows.slice(0, top);
    return { success: true, count: value.length, value, nextLink: more ? `/products?minPrice=${q['minPrice']}&categoryId=${q['categoryId']}&top=${top}&skip=${top}` : null };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}${HAND_PATH}`, close: async () => { await app.close(); await pool.end(); } };
}

export async function runSqlBench(): Promise<void> {
  const db = await startPostgres();
  const wharf = await startSqlTestServer(db.url, db.port + 1, { logger: false });
  const hand = await handWritten(db.url);
  try {
    await wharf.app.listen({ host: '127.0.0.1', port: 0 });
    const address = wharf.app.server.address();
    const wharfUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${WHARF_PATH}`;
    const auth = { authorization: wharf.authorization };
    const [a, b] = await Promise.all([fetch(wharfUrl, { headers: auth }).then((r) => r.json()), fetch(hand.url).then((r) => r.json())]);
    const same = JSON.stringify((a as { value: unknown }).value) === JSON.stringify((b as { value: unknown }).value);
    console.log(`same rows from both routes: ${same}`);
    await load(wharfUrl, 2, auth);
    await load(hand.url, 2);
    // two interleaved rounds (wharf, hand, hand, wharf) so drift in machine load hits both
    const w1 = await load(wharfUrl, DURATION_S / 2, auth);
    const h1 = await load(hand.url, DURATION_S / 2);
    const h2 = await load(hand.url, DURATION_S / 2);
    const w2 = await load(wharfUrl, DURATION_S / 2, auth);
    const mean = (a: Result, b: Result): Result => ({ rps: (a.rps + b.rps) / 2, p99: Math.max(a.p99, b.p99), errors: a.errors + b.errors, total: a.total + b.total });
    const w = mean(w1, w2);
    const h = mean(h1, h2);
    const ratio = w.rps / h.rps;
    console.log(`SQL list ($filter + $orderby + $top=50), ${CONNECTIONS} connections, ${DURATION_S} s each (two interleaved halves; p99 = worse half)`);
    console.log(`  wharf         ${w.rps.toFixed(0).padStart(7)} req/s   p99 ${w.p99} ms   errors ${w.errors}`);
    console.log(`  fastify + pg  ${h.rps.toFixed(0).padStart(7)} req/s   p99 ${h.p99} ms   errors ${h.errors}`);
    console.log(`  ratio ${ratio.toFixed(2)} (target >= 0.85) ${ratio >= 0.85 ? 'OK' : 'BELOW TARGET'}`);
  } finally {
    await hand.close();
    await wharf.close();
    await db.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runSqlBench();
}
