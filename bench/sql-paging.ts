/**
 * SQL paging benchmark: page 1 and page 5,000 of a 1,000,000-row PostgreSQL table (the demo's
 * products grown, 200 rows a page), `$skip` paging (Inventory/Products) against keyset paging
 * (Inventory/ProductPages, `"Paging": "Keyset"`), same run, same server, two orders: the key, and
 * `Price desc` (index on UnitPrice DESC, ProductId ASC: the key is appended ascending as the tie-breaker). The page-5,000 token is sealed by the
 * bench with the server's Sql:SkipTokenSecret from the database's row 999,800 (walking 4,999 pages
 * first would measure the walk). Each request is timed sequentially (BENCH_ROUNDS, default 20,
 * after 3 warm-ups); medians and the page-5,000 / page-1 ratio of each. Through the server
 * (inject), so parsing, compiling and shaping count; the rows must be the same on both endpoints.
 * Run alone with `npm run bench -- sql-paging`.
 */
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { keysetBinding } from '../runtime/sql/keyset.js';
import { SkipTokenSealer } from '../runtime/sql/keyset-token.js';
import { startPostgres } from '../test/setup/postgres.js';
import { startSqlTestServer } from '../test/sql/http-server.js';

const ROWS = 1_000_000;
const PAGE = 200;
const DEEP_PAGE = 5_000;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 20);
const SECRET = 'bench-only secret of at least thirty-two characters';

/** Products 10,001 .. 1,000,000 with the demo's formulas, and the index a `Price desc` keyset walk uses. */
const GROW = `
INSERT INTO inventory."Products" ("Sku", "ProductName", "CategoryId", "UnitPrice", "UnitsInStock", "CreatedAt")
SELECT 'SKU-' || lpad(i::text, 7, '0'), 'Bench Item ' || i, (i % 20) + 1,
       round(((i::bigint * 7919) % 50000) / 100.0 + 0.99, 2), (i * 31) % 500,
       timestamptz '2024-01-01 00:00:00+00' + (i * interval '37 seconds')
FROM generate_series(10001, ${ROWS}) AS i;
CREATE INDEX "IX_Products_UnitPrice_ProductId" ON inventory."Products" ("UnitPrice" DESC, "ProductId" ASC);
ANALYZE inventory."Products";`;

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
}

export async function runSqlPagingBench(): Promise<void> {
  const db = await startPostgres();
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  try {
    await admin.query(GROW);
    const server = await startSqlTestServer(db.url, db.port + 1, { logger: false, environments: ['pg'], settings: { Sql: { SkipTokenSecret: SECRET } } });
    try {
      const sealer = new SkipTokenSealer(SECRET);
      const time = async (url: string): Promise<{ ms: number; ids: unknown[] }> => {
        const started = performance.now();
        const res = await server.app.inject({ method: 'GET', url, headers: { authorization: server.authorization } });
        const ms = performance.now() - started;
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
        return { ms, ids: (res.json() as { value: { ProductId: unknown }[] }).value.map((r) => r.ProductId) };
      };
      const measure = async (url: string): Promise<{ ms: number; ids: unknown[] }> => {
        let ids: unknown[] = [];
        for (let i = 0; i < 3; i++) ids = (await time(url)).ids;
        const ms: number[] = [];
        for (let i = 0; i < ROUNDS; i++) ms.push((await time(url)).ms);
        return { ms: median(ms), ids };
      };
      const skip = (DEEP_PAGE - 1) * PAGE;
      for (const order of [
        { name: 'key order', orderby: undefined, sql: 'ORDER BY "ProductId"', columns: ['ProductId'] },
        { name: 'Price desc', orderby: 'Price desc', sql: 'ORDER BY "UnitPrice" DESC, "ProductId" ASC', columns: ['UnitPrice', 'ProductId'] },
      ]) {
        const o = order.orderby === undefined ? '' : `$orderby=${encodeURIComponent(order.orderby)}&`;
        // the last row of page 4,999: the rows after it are page 5,000
        const last = (await admin.query(`SELECT ${order.columns.map((c) => `"${c}"`).join(', ')} FROM inventory."Products" ${order.sql} OFFSET ${skip - 1} LIMIT 1`)).rows[0] as Record<string, unknown>;
        const token = sealer.seal(order.columns.map((c) => Number(last[c])), keysetBinding('sql:Inventory/ProductPages', order.orderby));
        const skip1 = await measure(`/api/pg/Inventory/Products?${o}$select=ProductId,Price&$top=${PAGE}`);
        const key1 = await measure(`/api/pg/Inventory/ProductPages?${o}$select=ProductId,Price&$top=${PAGE}`);
        const skipDeep = await measure(`/api/pg/Inventory/Products?${o}$select=ProductId,Price&$top=${PAGE}&$skip=${skip}`);
        const keyDeep = await measure(`/api/pg/Inventory/ProductPages?${o}$select=ProductId,Price&$top=${PAGE}&$skiptoken=${token}`);
        const same = JSON.stringify(skip1.ids) === JSON.stringify(key1.ids) && JSON.stringify(skipDeep.ids) === JSON.stringify(keyDeep.ids);
        console.log(`SQL paging, ${ROWS.toLocaleString('en')} rows, ${PAGE} a page, ${order.name}, median of ${ROUNDS} sequential requests (same rows from both: ${same})`);
        console.log(`  $skip    page 1 ${skip1.ms.toFixed(2).padStart(8)} ms   page ${DEEP_PAGE} ${skipDeep.ms.toFixed(2).padStart(8)} ms   deep/first ${(skipDeep.ms / skip1.ms).toFixed(1)}x`);
        console.log(`  keyset   page 1 ${key1.ms.toFixed(2).padStart(8)} ms   page ${DEEP_PAGE} ${keyDeep.ms.toFixed(2).padStart(8)} ms   deep/first ${(keyDeep.ms / key1.ms).toFixed(1)}x`);
        console.log(`  page ${DEEP_PAGE}: keyset ${(skipDeep.ms / keyDeep.ms).toFixed(1)}x faster than $skip`);
      }
    } finally {
      await server.close();
    }
  } finally {
    await admin.end();
    await db.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runSqlPagingBench();
}
