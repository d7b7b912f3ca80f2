/**
 * `$apply` through the running server on a real PostgreSQL and the embedded demo database: a
 * grouped total (the transforms apply to the result: Sales/Orders renames Status), paging with
 * nextLink, QUERY with `apply` in the body, and the spec's 400 body for every bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from './http-server.js';

const MSSQL_URL = process.env['MSSQL_URL'];
let pg: TestPostgres;
let server: SqlTestServer;

beforeAll(async () => {
  pg = await startPostgres();
  server = await startSqlTestServer(pg.url, pg.port + 1, { logger: false, ...(MSSQL_URL ? { mssqlUrl: MSSQL_URL } : {}) });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

async function get(env: string, path: string) {
  return server.app.inject({ method: 'GET', url: `/api/${env}/${path}`, headers: { authorization: server.authorization } });
}

const enc = (s: string) => encodeURIComponent(s);

describe.each(['pg', 'demo'])('$apply on %s', (env) => {
  it('a grouped total: every order counted once, the renamed column renamed in the result', async () => {
    const res = await get(env, `Sales/Orders?$apply=${enc('groupby((Status),aggregate(Total with sum as Revenue,$count as Orders))')}&$orderby=Orders desc`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { success: boolean; value: { OrderStatus: string; Revenue: number; Orders: number }[]; nextLink: null };
    expect(body.success).toBe(true);
    expect(body.nextLink).toBeNull();
    expect(body.value.length).toBeGreaterThan(1);
    expect(Object.keys(body.value[0]!)).toEqual(['OrderStatus', 'Revenue', 'Orders']);
    const all = await get(env, 'Sales/Orders?$count=true&$top=1');
    expect(body.value.reduce((n, r) => n + r.Orders, 0)).toBe(Number(all.headers['x-total-records']));
    const counts = body.value.map((r) => r.Orders);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const paid = await get(env, `Sales/Orders?$filter=${enc("Status eq 'Paid'")}&$count=true&$top=1`);
    expect(body.value.find((r) => r.OrderStatus === 'Paid')?.Orders).toBe(Number(paid.headers['x-total-records']));
  });

  it('pages over the groups: nextLink carries $apply, $orderby, $top and $skip', async () => {
    const apply = enc('filter(Price gt 10)/groupby((CategoryId),aggregate($count as N))');
    const res = await get(env, `Inventory/Products?$apply=${apply}&$top=15`);
    const body = res.json() as { count: number; nextLink: string; value: { CategoryId: number }[] };
    expect(body.count).toBe(15);
    expect(body.value.map((r) => r.CategoryId)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(body.nextLink).toBe(`/api/${env}/Inventory/Products?$apply=filter(Price%20gt%2010)%2Fgroupby((CategoryId),aggregate($count%20as%20N))&$top=15&$skip=15`);
    const next = await server.app.inject({ method: 'GET', url: body.nextLink, headers: { authorization: server.authorization } });
    expect((next.json() as { value: { CategoryId: number }[] }).value.map((r) => r.CategoryId)).toEqual([16, 17, 18, 19, 20]);
    expect(next.json().nextLink).toBeNull();
  });

  it('an average is a JSON number on every database, a repeating decimal too (not the text of a 20-digit numeric)', async () => {
    const res = await get(env, `Inventory/Warehouses?$apply=${enc("filter(WarehouseId le 3)/aggregate(Capacity with average as A,Capacity with sum as S)")}`);
    expect(res.json()).toEqual({ success: true, count: 1, value: [{ A: 25000 / 3, S: 25000 }], nextLink: null });
  });

  it('QUERY takes apply in the body', async () => {
    const res = await server.app.inject({
      method: 'QUERY' as 'GET', url: `/api/${env}/Inventory/Products`,
      headers: { authorization: server.authorization, 'content-type': 'application/json' },
      payload: JSON.stringify({ apply: 'aggregate($count as N)' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, count: 1, value: [{ N: expect.any(Number) }], nextLink: null });
  });

  it.each([
    ['Inventory/Products', 'groupby((CategoryId),aggregate(Price with median as M))', "$apply: unknown aggregation method 'median'; use sum, average, min, max, countdistinct at position 43"],
    ['Inventory/Products', 'groupby((CategoryId)', "$apply: expected ')', found the end at position 21"],
    ['Inventory/Products', 'compute(Price mul 2 as P)', "$apply: unknown transformation 'compute'; use filter, groupby or aggregate at position 1"],
    ['Inventory/Products', 'filter(Price gt 1)', '$apply: must end with groupby(...) or aggregate(...)'],
    ['Inventory/Products', 'filter(Price gt)/aggregate($count as N)', '$apply: filter: unexpected end of expression at position 16'],
    ['Inventory/Products', 'groupby((UnitPrice))', "$apply: unknown column 'UnitPrice' at position 10"],
    ['Inventory/Products', 'aggregate(Name with sum as S)', '$apply: sum needs a number column; Name is a string at position 11'],
    ['Inventory/Products', 'groupby((CategoryId),aggregate($count as CategoryId))', "$apply: alias 'CategoryId' is the name of a grouping column"],
    // SQL Server names are case-insensitive: `ORDER BY [City]` over City and city is ambiguous there
    ['Inventory/Warehouses', 'groupby((City),aggregate(Capacity with sum as city))', "$apply: alias 'city' is the name of a grouping column"],
    ['Inventory/Products', 'aggregate(Price with min as P,Price with max as p)', "$apply: alias 'p' given twice at position 31"],
    ['Inventory/Products', "aggregate($count as N)&$filter=Price gt 1", '$filter cannot be combined with $apply; put filter(...) first inside $apply'],
    ['Inventory/Products', "aggregate($count as N)&$orderby=Price", 'Invalid orderby field: Price'],
    ['Customers', 'aggregate(Email with countdistinct as E)', "$apply: column 'Email' is masked in responses and cannot be aggregated at position 11"],
    ['Customers', 'groupby((Email))', "$apply: column 'Email' is masked in responses and cannot be grouped by at position 10"],
    ['Inventory/ProductsByCategory/1', 'aggregate($count as N)', '$apply is not supported on table-valued function endpoints'],
  ])('%s $apply=%s is a 400', async (path, apply, error) => {
    const [a, rest] = apply.split('&');
    const res = await get(env, `${path}?$apply=${enc(a!)}${rest ? `&${rest.replace(/ /g, '%20')}` : ''}`);
    expect(res.json()).toEqual({ success: false, error });
    expect(res.statusCode).toBe(400);
  });
});

/** The sum of an integer column past 2^31 (SQL Server's SUM of an int is an int), on every database; `ms` only with MSSQL_URL. */
describe.each(['pg', 'demo', ...(MSSQL_URL ? ['ms'] : [])])('$apply sum past 2^31 on %s', (env) => {
  it('the sum of an int column is the exact number, not a 400', async () => {
    const send = (method: 'POST' | 'DELETE', url: string, payload: unknown) => server.app.inject({
      method, url: `/api/${env}/${url}`, headers: { authorization: server.authorization, 'content-type': 'application/json' }, payload: JSON.stringify(payload),
    });
    const created = await send('POST', 'Inventory/Warehouses', [{ Code: 'SM-001', Name: 'Big one', Capacity: 2_000_000_000 }, { Code: 'SM-002', Name: 'Big two', Capacity: 2_000_000_000 }]);
    expect(created.statusCode, created.body).toBe(201);
    try {
      const res = await get(env, `Inventory/Warehouses?$apply=${enc("filter(startswith(Code,'SM-'))/aggregate(Capacity with sum as S)")}`);
      expect(res.json()).toEqual({ success: true, count: 1, value: [{ S: 4_000_000_000 }], nextLink: null });
    } finally {
      await send('DELETE', 'Inventory/Warehouses', (created.json() as { id: number[] }).id);
    }
  });
});
