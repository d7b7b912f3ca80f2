/**
 * Claims-based Authorization rules of SQL endpoints through the running server (real compiler
 * output, real pipeline), on a real PostgreSQL (`pg`), on the embedded PGlite database (`demo`) and,
 * with MSSQL_URL (a database loaded with runtime/sql/demo/mssql.sql), on SQL Server (`ms`):
 *   - Sales/MyOrders (sample project): RowFilter `CustomerId eq @claims.customer_id` with JWTs of a
 *     real OpenID provider on loopback: only the claim's rows, no claim = no rows, admin scope = all;
 *   - Inventory/MyWarehouses (added here): RowFilter `City eq @claims.username` with Wharf tokens,
 *     Columns narrowing; reads, $count, $expand, by key, updates, deletes and inserts.
 */
import { cp, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken, startOidcProvider } from '../setup/oidc.js';
import type { LocalIdp } from '../setup/oidc.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { ROOT } from './fixtures.js';
import { startSqlTestServer, type SqlTestServer } from './http-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';
import { listOptionReads } from '../../runtime/sql/handler.js';

const AUDIENCE = 'http://wharf.test/api';
const MSSQL_URL = process.env['MSSQL_URL'];
const ENVIRONMENTS = ['pg', 'demo', ...(MSSQL_URL ? ['ms' as const] : [])] as const;
const MY_WAREHOUSES = {
  DatabaseSchema: 'inventory',
  DatabaseObjectName: 'Warehouses',
  PrimaryKey: 'WarehouseId',
  AllowedColumns: ['WarehouseId', 'Code', 'WarehouseName;Name', 'City', 'Capacity', 'ContactCustomerId;ContactId', 'IsActive', 'Notes'],
  AllowedMethods: ['GET', 'QUERY', 'POST', 'PATCH', 'DELETE'],
  WriteMode: 'Table',
  Relationships: [
    { Name: 'Contact', Target: 'Customers', LocalColumn: 'ContactCustomerId', TargetColumn: 'CustomerId', Multiplicity: 'ToOne' },
    { Name: 'Orders', Target: 'Sales/MyOrders', LocalColumn: 'ContactCustomerId', TargetColumn: 'CustomerId', Multiplicity: 'ToMany' },
  ],
  Authorization: { Rules: [{ Scopes: ['warehouses'], RowFilter: 'City eq @claims.username', Columns: ['WarehouseId', 'Code', 'Name', 'City', 'Capacity'] }] },
};

// a boolean column compared with a claim (JWTs with scope `warehouses.active`)
const ACTIVE_WAREHOUSES = {
  DatabaseSchema: 'inventory',
  DatabaseObjectName: 'Warehouses',
  PrimaryKey: 'WarehouseId',
  AllowedColumns: ['WarehouseId', 'City', 'IsActive'],
  AllowedMethods: ['GET'],
  Authorization: { Rules: [{ Scopes: ['warehouses.active'], RowFilter: 'IsActive eq @claims.active' }] },
};

// a table-valued function (no column kinds read from the catalogue: the database judges the claim)
const MY_PRODUCTS_BY_CATEGORY = {
  DatabaseSchema: 'inventory',
  DatabaseObjectName: 'ProductsByCategory',
  DatabaseObjectType: 'TableValuedFunction',
  AllowedColumns: ['ProductId', 'Sku', 'ProductName;Name', 'UnitPrice;Price'],
  AllowedMethods: ['GET'],
  FunctionParameters: [{ Name: 'CategoryId', SqlType: 'int', Source: 'Path', Position: 1, Required: true }],
  Authorization: { Rules: [{ Scopes: ['products.mine'], RowFilter: 'ProductId eq @claims.product' }] },
};

let pg: TestPostgres;
let idp: LocalIdp;
let server: SqlTestServer;
let root: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  pg = await startPostgres();
  idp = await startOidcProvider({
    audience: AUDIENCE,
    scopes: ['orders.read', 'orders.admin', 'read'],
    clients: [
      { client_id: 'customer7', client_secret: 'customer7-secret-customer7-secret', scope: 'orders.read', claims: { customer_id: 7 } },
      { client_id: 'customer7text', client_secret: 'customer7-secret-customer7-secret', scope: 'orders.read', claims: { customer_id: '7' } },
      { client_id: 'noclaim', client_secret: 'noclaim-secret-noclaim-secret-xx', scope: 'orders.read read' },
      { client_id: 'admin', client_secret: 'admin-secret-admin-secret-admin-x', scope: 'orders.admin' },
    ],
  });
  root = await mkdtemp(path.join(tmpdir(), 'wharf-rules-'));
  for (const dir of ['endpoints', 'schemas']) await cp(path.join(ROOT, dir), path.join(root, dir), { recursive: true });
  await mkdir(path.join(root, 'endpoints/SQL/Inventory/MyWarehouses'), { recursive: true });
  await writeFile(path.join(root, 'endpoints/SQL/Inventory/MyWarehouses/entity.json'), JSON.stringify(MY_WAREHOUSES, null, 2));
  await mkdir(path.join(root, 'endpoints/SQL/Inventory/ActiveWarehouses'), { recursive: true });
  await writeFile(path.join(root, 'endpoints/SQL/Inventory/ActiveWarehouses/entity.json'), JSON.stringify(ACTIVE_WAREHOUSES, null, 2));
  await mkdir(path.join(root, 'endpoints/SQL/Inventory/MyProductsByCategory'), { recursive: true });
  await writeFile(path.join(root, 'endpoints/SQL/Inventory/MyProductsByCategory/entity.json'), JSON.stringify(MY_PRODUCTS_BY_CATEGORY, null, 2));
  server = await startSqlTestServer(pg.url, pg.port + 1, {
    logger: false,
    root,
    environments: [...ENVIRONMENTS],
    ...(MSSQL_URL ? { mssqlUrl: MSSQL_URL } : {}),
    caching: true,
    // a generous wait for the provider: a loaded test machine must not turn the first key fetch into a 503
    settings: { Auth: { Jwt: { Issuer: idp.issuer, Audience: AUDIENCE, KeysTimeoutMs: 15000 } } },
  });
  const scopes: Record<string, string> = { customer7: 'orders.read', customer7text: 'orders.read', noclaim: 'orders.read read', admin: 'orders.admin' };
  for (const [client, scope] of Object.entries(scopes)) tokens[client] = await idp.token(client, scope);
  tokens['Hamburg'] = (await gatewayOf(server.app).access.tokens.create({ username: 'Hamburg', allowedScopes: 'warehouses' })).token;
  tokens['Rotterdam'] = (await gatewayOf(server.app).access.tokens.create({ username: 'Rotterdam', allowedScopes: 'warehouses' })).token;
  tokens['reader'] = (await gatewayOf(server.app).access.tokens.create({ username: 'reader', allowedScopes: 'read' })).token;
  tokens['all'] = (await gatewayOf(server.app).access.tokens.create({ username: 'all', allowedScopes: '*' })).token;
  // start both databases (the embedded one initialises for a while) before the timed tests
  for (const env of ENVIRONMENTS) expect((await call('GET', `/api/${env}/Inventory/Warehouses?$top=1`, 'all')).statusCode).toBe(200);
}, 180_000);

afterAll(async () => {
  await server?.close();
  await idp?.close();
  await pg?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

function call(method: string, url: string, token: string, payload?: unknown) {
  return server.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${tokens[token]}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}

/** A check query (quoted identifiers and CAST read the same in both dialects; `$1` is `@p1` on SQL Server). */
async function db(env: string, sql: string, params: string[] = []): Promise<Record<string, unknown>[]> {
  const driver = server.drivers.ready(env);
  if (!driver) throw new Error(`driver ${env} not started`);
  const text = env === 'ms' ? sql.replace(/\$(\d+)/g, '@p$1') : sql;
  return driver.query(text, params.map((value) => ({ type: 'string' as const, value }))) as Promise<Record<string, unknown>[]>;
}

describe.each(ENVIRONMENTS)('Authorization rules on %s', (env) => {
  const orders = `/api/${env}/Sales/MyOrders`;
  const houses = `/api/${env}/Inventory/MyWarehouses`;

  it('a JWT with customer_id reads only its own orders (list, $count, by key), narrowed columns', async () => {
    const response = await call('GET', `${orders}?$count=true&$top=1000`, 'customer7');
    expect(response.statusCode).toBe(200);
    const body = response.json() as { value: Record<string, unknown>[] };
    const [{ n }] = (await db(env, 'SELECT CAST(count(*) AS int) AS n FROM sales."Orders" WHERE "CustomerId" = 7')) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
    expect(body.value.length).toBe(n);
    expect(response.headers['x-total-records']).toBe(String(n));
    expect(new Set(body.value.map((row) => row['CustomerId']))).toEqual(new Set([7]));
    expect(Object.keys(body.value[0]!)).toEqual(['OrderId', 'CustomerId', 'OrderDate', 'Status', 'Total']);
    // a client filter cannot widen it
    const widened = await call('GET', `${orders}?$filter=CustomerId eq 8 or CustomerId eq 7&$top=1000`, 'customer7');
    expect(new Set((widened.json() as { value: Record<string, unknown>[] }).value.map((row) => row['CustomerId']))).toEqual(new Set([7]));
    const [{ OrderId: other }] = (await db(env, 'SELECT MIN("OrderId") AS "OrderId" FROM sales."Orders" WHERE "CustomerId" = 8')) as [{ OrderId: number }];
    const own = body.value[0]!['OrderId'];
    expect((await call('GET', `${orders}/${own}`, 'customer7')).statusCode).toBe(200);
    expect((await call('GET', `${orders}/${other}`, 'customer7')).statusCode).toBe(404);
    // the same claim as text
    const text = await call('GET', `${orders}?$count=true&$top=1`, 'customer7text');
    expect(text.headers['x-total-records']).toBe(String(n));
    // $expand into a target without rules works on the filtered rows
    const expanded = await call('GET', `${orders}?$expand=Customer&$top=2`, 'customer7');
    expect((expanded.json() as { value: { Customer: { CustomerId: number } }[] }).value.map((row) => row.Customer.CustomerId)).toEqual([7, 7]);
  });

  it('the same list URL from two callers: each gets its own RowFilter, never the other\'s compiled read (issue 30: lists are kept by query string)', async () => {
    // the response cache is on in this server: a query string of its own per round keeps it out of the way
    for (let round = 0; round < 3; round++) {
      for (const city of ['Hamburg', 'Rotterdam', 'Hamburg']) {
        const before = listOptionReads();
        const response = await call('GET', `${houses}?$select=City&$orderby=City&$top=${50 + round}`, city);
        expect(response.statusCode).toBe(200);
        expect((response.json() as { value: { City: string }[] }).value.map((row) => row.City)).toEqual([city]);
        // a read with a RowFilter is compiled for its caller every time, never found by its query string
        expect(listOptionReads() - before, 'option reads of a RowFilter read').toBe(1);
      }
    }
  });

  it('no customer_id claim: no rows, never all rows; QUERY too; never another caller\'s cached answer', async () => {
    const first = await call('GET', `${orders}?$count=true`, 'customer7'); // the response cache is on in this server
    expect([first.statusCode, first.headers['x-cache']]).toEqual([200, undefined]);
    const list = await call('GET', `${orders}?$count=true`, 'noclaim');
    expect([list.statusCode, (list.json() as { value: unknown[] }).value, list.headers['x-total-records']]).toEqual([200, [], '0']);
    const query = await call('QUERY', orders, 'noclaim', { filter: 'Status eq \'Paid\'' });
    expect([query.statusCode, (query.json() as { value: unknown[] }).value]).toEqual([200, []]);
  });

  it('claims shaped as SQL or OData, arrays, objects, odd numbers, booleans: parameters only, never another caller\'s rows, never a 500', async () => {
    const shapes: unknown[] = ["7 OR 1=1", "7' OR '1'='1", "0) OR (1=1", "7 or CustomerId ne 7", [7], [7, 8], { id: 7 }, 7.5, 1e300, true, null, ''];
    for (const shape of shapes) {
      const jwt = await signToken(idp, AUDIENCE, { scope: 'orders.read', customer_id: shape as never });
      const response = await server.app.inject({ method: 'GET', url: `${orders}?$count=true&$top=5`, headers: { authorization: `Bearer ${jwt}` } });
      const body = response.json() as { value?: unknown[] };
      // no row of customer 7 or any other: either an empty page or a 400 for a value the column cannot hold
      expect([JSON.stringify(shape), response.statusCode === 400 ? 'refused' : [response.statusCode, body.value, response.headers['x-total-records']]]).toSatisfy(
        ([, outcome]) => outcome === 'refused' || JSON.stringify(outcome) === JSON.stringify([200, [], '0']),
      );
    }
  });

  it('a claim no value of the column can equal (text that is not a number\'s own text, a number beyond the column, a number or text against a boolean): no rows, no error, nothing about $filter', async () => {
    const list = async (url: string, claims: Record<string, unknown>) => {
      const jwt = await signToken(idp, AUDIENCE, claims as never);
      return server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${jwt}` } });
    };
    const none = (response: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) =>
      [response.statusCode, (response.json() as { value?: unknown }).value, response.headers['x-total-records']];
    for (const claim of ['abc', '', ' 7', '07', '7.0', '+7', '7e0', '0x7', '7 OR 1=1', '99999999999', 99999999999, 7.5, 1e300, -0.5]) {
      const response = await list(`${orders}?$count=true&$top=5`, { scope: 'orders.read', customer_id: claim });
      expect([JSON.stringify(claim), ...none(response)]).toEqual([JSON.stringify(claim), 200, [], '0']);
    }
    const [{ OrderId: own }] = (await db(env, 'SELECT MIN("OrderId") AS "OrderId" FROM sales."Orders" WHERE "CustomerId" = 7')) as [{ OrderId: number }];
    const byKey = await list(`${orders}/${own}`, { scope: 'orders.read', customer_id: 'abc' });
    expect([byKey.statusCode, byKey.body.includes('$filter')]).toEqual([404, false]);
    const jwt = await signToken(idp, AUDIENCE, { scope: 'orders.read', customer_id: 'abc' });
    const query = await server.app.inject({ method: 'QUERY' as 'GET', url: orders, headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' }, payload: '{"filter":"Status ne \'x\'"}' });
    expect([query.statusCode, (query.json() as { value: unknown }).value]).toEqual([200, []]);
    // "7" (a number's own text) stays customer 7 (the claim's exact value), as 7 does
    const [{ n }] = (await db(env, 'SELECT CAST(count(*) AS int) AS n FROM sales."Orders" WHERE "CustomerId" = 7')) as [{ n: number }];
    expect((await list(`${orders}?$count=true&$top=1`, { scope: 'orders.read', customer_id: '7' })).headers['x-total-records']).toBe(String(n));
    // a boolean column: true and false only; 1 (SQL Server would read it as true) and "true" are no rows
    const active = `/api/${env}/Inventory/ActiveWarehouses`;
    const [{ a }] = (await db(env, `SELECT CAST(count(*) AS int) AS a FROM inventory."Warehouses" WHERE "IsActive" = ${env === 'ms' ? '1' : 'true'}`)) as [{ a: number }];
    expect(a).toBeGreaterThan(0);
    expect((await list(`${active}?$count=true`, { scope: 'warehouses.active', active: true })).headers['x-total-records']).toBe(String(a));
    for (const claim of [1, 0, 'true', 't', '1']) {
      const response = await list(`${active}?$count=true`, { scope: 'warehouses.active', active: claim });
      expect([JSON.stringify(claim), ...none(response)]).toEqual([JSON.stringify(claim), 200, [], '0']);
    }
  });

  it('a function\'s column (kind not known): a claim the database refuses is a 400 that names no $filter, with or without the caller\'s own', async () => {
    const [{ p, c }] = (await db(env, 'SELECT MIN("ProductId") AS p, MIN("CategoryId") AS c FROM inventory."Products" WHERE "CategoryId" = (SELECT MIN("CategoryId") FROM inventory."Products")')) as [{ p: number; c: number }];
    const get = async (url: string, product: unknown) => server.app.inject({ method: 'GET', url,
      headers: { authorization: `Bearer ${await signToken(idp, AUDIENCE, { scope: 'products.mine', product: product as never })}` } });
    const base = `/api/${env}/Inventory/MyProductsByCategory/${c}`;
    const own = await get(base, p);
    expect([own.statusCode, (own.json() as { value: { ProductId: number }[] }).value.map((row) => row.ProductId)]).toEqual([200, [p]]);
    for (const url of [base, `${base}?$filter=${encodeURIComponent("Sku ne 'x'")}`]) {
      const refused = await get(url, 'abc');
      expect([refused.statusCode, refused.json()], url).toEqual([400, { success: false, error: 'A value does not match the type or size of its column' }]);
    }
  });

  it('no matching rule: 403; the admin rule reads every row; a rule\'s Columns are enforced in $select/$filter/$orderby', async () => {
    expect((await call('GET', orders, 'reader')).json()).toEqual({ success: false, error: "Token is not allowed to call GET on 'Sales/MyOrders'" });
    const admin = await call('GET', `${orders}?$count=true&$top=1`, 'admin');
    const [{ total }] = (await db(env, 'SELECT CAST(count(*) AS int) AS "total" FROM sales."Orders"')) as [{ total: number }];
    expect(total).toBeGreaterThanOrEqual(5000); // the seed's 5,000 (a shared SQL Server may hold other tests' rows)
    expect(admin.headers['x-total-records']).toBe(String(total));
    for (const query of ['$select=Notes', '$filter=Notes eq \'x\'', '$orderby=Notes']) {
      expect((await call('GET', `${houses}?${query}`, 'Hamburg')).statusCode, query).toBe(400);
    }
    expect((await call('GET', `${houses}?$select=ContactId`, 'Hamburg')).statusCode).toBe(400);
  });

  it('Wharf token claims (username): reads, by key, $expand refused into a ruled endpoint', async () => {
    const list = await call('GET', `${houses}?$count=true`, 'Hamburg');
    expect(list.statusCode).toBe(200);
    const rows = (list.json() as { value: Record<string, unknown>[] }).value;
    expect(rows.map((row) => row['City'])).toEqual(['Hamburg']);
    expect(Object.keys(rows[0]!)).toEqual(['WarehouseId', 'Code', 'Name', 'City', 'Capacity']);
    const rotterdam = (await db(env, 'SELECT "WarehouseId" AS id FROM inventory."Warehouses" WHERE "City" = \'Rotterdam\''))[0]!['id'];
    const hamburg = rows[0]!['WarehouseId'];
    expect((await call('GET', `${houses}/${rotterdam}`, 'Hamburg')).statusCode).toBe(404);
    expect((await call('GET', `${houses}/${hamburg}`, 'Hamburg')).statusCode).toBe(200);
    const contact = await call('GET', `${houses}?$expand=Contact`, 'Hamburg');
    expect(contact.statusCode).toBe(200);
    const refused = await call('GET', `${houses}?$expand=Orders`, 'Hamburg');
    expect([refused.statusCode, refused.json()]).toEqual([400, { success: false, error: "$expand: 'Orders' cannot be expanded: its endpoint has Authorization rules (read it on its own)" }]);
  });

  it('updates and deletes only reach rows inside the filter; inserts and moves outside it are 422', async () => {
    const id = async (city: string) => (await db(env, 'SELECT "WarehouseId" AS id FROM inventory."Warehouses" WHERE "City" = $1', [city]))[0]!['id'];
    const rotterdam = await id('Rotterdam');
    const hamburg = await id('Hamburg');
    const before = await db(env, 'SELECT * FROM inventory."Warehouses" ORDER BY "WarehouseId"');
    expect((await call('PATCH', `${houses}/${rotterdam}`, 'Hamburg', { Capacity: 1 })).statusCode).toBe(404);
    expect((await call('DELETE', `${houses}/${rotterdam}`, 'Hamburg')).statusCode).toBe(404);
    const moved = await call('PATCH', `${houses}/${hamburg}`, 'Hamburg', { City: 'Rotterdam' });
    expect([moved.statusCode, moved.json()]).toEqual([422, { success: false, error: 'Validation failed', details: [{ field: 'City', message: 'The record is outside the rows this caller may write (Authorization RowFilter)' }] }]);
    const outside = await call('POST', houses, 'Hamburg', { Code: 'NL-009', Name: 'Elsewhere', City: 'Rotterdam' });
    expect(outside.statusCode).toBe(422);
    const hidden = await call('POST', houses, 'Hamburg', { Code: 'DE-008', Name: 'Hidden', City: 'Hamburg', Notes: 'x' });
    expect(hidden.statusCode).toBe(422);
    expect(await db(env, 'SELECT * FROM inventory."Warehouses" ORDER BY "WarehouseId"')).toEqual(before);

    const patched = await call('PATCH', `${houses}/${hamburg}`, 'Hamburg', { Capacity: 8001 });
    expect([patched.statusCode, (patched.json() as { result: Record<string, unknown> }).result['Capacity']]).toEqual([200, 8001]);
    const created = await call('POST', houses, 'Hamburg', { Code: 'DE-009', Name: 'Hamburg South', City: 'Hamburg' });
    expect(created.statusCode).toBe(201);
    const newId = (created.json() as { id: number }).id;
    expect((await call('DELETE', `${houses}/${newId}`, 'Hamburg')).statusCode).toBe(200);
    await call('PATCH', `${houses}/${hamburg}`, 'all', { Capacity: 8000 });
  });

  it('batch writes are refused under a RowFilter (nothing stored); $apply totals only the caller\'s rows', async () => {
    const before = await db(env, 'SELECT * FROM inventory."Warehouses" ORDER BY "WarehouseId"');
    const batch = await call('POST', houses, 'Hamburg', [{ Code: 'DE-010', Name: 'Inside', City: 'Hamburg' }, { Code: 'NL-010', Name: 'Outside', City: 'Rotterdam' }]);
    expect([batch.statusCode, (batch.json() as { error: string }).error]).toEqual([400, 'Batch writes are not available to callers under an Authorization RowFilter: write one record per request']);
    const ids = (await db(env, 'SELECT "WarehouseId" AS id FROM inventory."Warehouses"')).map((row) => row['id']);
    expect((await call('DELETE', houses, 'Hamburg', ids)).statusCode).toBe(400);
    expect(await db(env, 'SELECT * FROM inventory."Warehouses" ORDER BY "WarehouseId"')).toEqual(before);

    const totals = await call('GET', `${orders}?$apply=${encodeURIComponent('aggregate($count as n)')}`, 'customer7');
    expect(totals.statusCode).toBe(200);
    const [{ n }] = (await db(env, 'SELECT CAST(count(*) AS int) AS n FROM sales."Orders" WHERE "CustomerId" = 7')) as [{ n: number }];
    const [{ total: all }] = (await db(env, 'SELECT CAST(count(*) AS int) AS "total" FROM sales."Orders"')) as [{ total: number }];
    expect(all).toBeGreaterThan(n);
    expect(Number((totals.json() as { value: { n: unknown }[] }).value[0]!.n)).toBe(n);
  });
});
