/**
 * Every SQL read route and error through the running server (real compiler output, real
 * runtime pipeline) on a real PostgreSQL; one embedded (PGlite) request proves the default.
 * Status, headers and literal JSON. Values follow from the deterministic seed formulas in
 * runtime/sql/demo/seed.sql (e.g. product 7: price ((7*7919) % 50000)/100 + 0.99 = 55.32).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../setup/free-port.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from './http-server.js';
import { P, READ_CASES as cases, type ReadGiven as Given } from './read-cases.js';

let pg: TestPostgres;
let server: SqlTestServer;
/** The `down` environment's port: nothing listens there until "recovers by itself" starts a database on it. */
let downPort: number;

beforeAll(async () => {
  pg = await startPostgres();
  // a port the OS just handed out and released, not pg.port + 1 (the next ephemeral port, which a
  // client socket of another test may hold by the time the database is started there)
  downPort = await freePort();
  server = await startSqlTestServer(pg.url, downPort);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

/**
 * Hostile or ill-typed input (issue 18 item 3): the same 400, before any SQL, on PostgreSQL and on
 * the embedded database (PGlite answered some of these with a 500 before the type rules).
 */
const hostile: Array<[string, { url: string; method?: 'QUERY'; payload?: unknown; error: string }]> = [
  ['NUL in a string literal', { url: "/Inventory/Products?$filter=Name eq 'a%00b'", error: '$filter: a string must not contain the NUL character (U+0000) at position 9' }],
  ['NUL in a match pattern', { url: "/Inventory/Products?$filter=contains(Name,'%00')", error: '$filter: a string must not contain the NUL character (U+0000) at position 15' }],
  ['NUL in a QUERY body', { url: '/Inventory/Products', method: 'QUERY', payload: { filter: "Name eq 'a\u0000'" }, error: '$filter: a string must not contain the NUL character (U+0000) at position 9' }],
  ['NUL in a key (refused by the router already)', { url: '/Inventory/Products/a%00b', error: "Invalid path segment: 'a%00b' contains an encoded '/', '\\' or a control character." }],
  ['bare date column', { url: '/Sales/Reports/OrderSummary?$filter=OrderDate', error: "$filter: 'OrderDate' is a date and cannot be compared with a boolean at position 1" }],
  ['not on a date column', { url: '/Sales/Reports/OrderSummary?$filter=not OrderDate', error: "$filter: 'OrderDate' is a date and cannot be compared with a boolean at position 5" }],
  ['date lt true', { url: '/Sales/Reports/OrderSummary?$filter=OrderDate lt true', error: "$filter: 'OrderDate' is a date and cannot be compared with a boolean at position 1" }],
  ['timestamp eq number', { url: '/Inventory/Products?$filter=CreatedAt eq 5', error: "$filter: 'CreatedAt' is a date-time and cannot be compared with a number at position 1" }],
  ['string eq boolean', { url: '/Inventory/Products?$filter=Name eq true', error: "$filter: 'Name' is a string and cannot be compared with a boolean at position 1" }],
  ['string eq time', { url: '/Inventory/Products?$filter=Name eq 08:30', error: "$filter: 'Name' is a string and cannot be compared with a time of day at position 1" }],
  ['QUERY body nested 10,000 deep', { url: '/Inventory/Products', method: 'QUERY', payload: '['.repeat(10_000) + ']'.repeat(10_000), error: 'Invalid JSON body: JSON is nested deeper than 64 levels.' }],
  ['QUERY body nested 10,000 deep and cut off', { url: '/Inventory/Products', method: 'QUERY', payload: '{"a":'.repeat(10_000), error: 'Invalid JSON body: JSON is nested deeper than 64 levels.' }],
  ['QUERY top as a string', { url: '/Inventory/Products', method: 'QUERY', payload: { top: '5' }, error: 'QUERY body: top must be an integer' }],
];

describe.each(['pg', 'demo'])('hostile and ill-typed input on %s: 400 before any SQL', (env) => {
  it.each(hostile)('%s', async (_name, { url, method, payload, error }) => {
    const res = await send({ url: `/api/${env}${url}`, ...(method ? { method, contentType: 'application/json', payload } : {}) });
    expect(res.json()).toEqual({ success: false, error });
    expect(res.statusCode).toBe(400);
  });
});

async function send(given: Given) {
  const payload = given.payload === undefined ? undefined : typeof given.payload === 'string' ? given.payload : JSON.stringify(given.payload);
  return server.app.inject({
    method: given.method ?? 'GET',
    url: given.url,
    headers: { authorization: server.authorization, ...(given.contentType ? { 'content-type': given.contentType } : {}) },
    ...(payload === undefined ? {} : { payload }),
  });
}

describe('SQL read routes on PostgreSQL', () => {
  it.each(cases)('%s', async (_name, { given, want }) => {
    const logged = server.logs.lines().length;
    const res = await send(given);
    expect(res.statusCode).toBe(want.status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual(want.body);
    for (const [name, value] of Object.entries(want.headers ?? {})) expect(res.headers[name]).toBe(value);
    if (want.status === 200) expect(res.headers['x-query-time']).toMatch(/^\d+\.\d{2}$/);
    // compact JSON, keys in the order the spec shows (success, count, value, nextLink)
    if (want.status === 200) expect(res.body).toBe(JSON.stringify(want.body));
    // the refusal is thrown as its own registry code where it happens (the request's log line names it)
    if (want.code !== undefined) {
      await vi.waitFor(() => {
        const path = given.url.split('?')[0];
        const line = server.logs.lines().slice(logged).find((l) => String(l['url']).split('?')[0] === path && l['method'] === (given.method ?? 'GET') && l['statusCode'] === want.status);
        expect(line?.['code']).toBe(want.code);
      });
    }
  });

  it('reads by key reuse their compiled query with each request\'s own key', async () => {
    const got: unknown[] = [];
    for (const id of [11, 12, 11, 999_999, 13]) {
      for (const options of ['', '?$select=Name,CategoryId', '?$select=Name&$expand=Category($select=CategoryId)']) {
        const res = await send({ url: `${P}/${id}${options}` });
        got.push(res.statusCode === 200 ? res.json() : res.statusCode);
      }
    }
    const row = (id: number) => got[[11, 12, 11, 999_999, 13].indexOf(id) * 3] as { ProductId: number; Name: string; CategoryId: number };
    expect([row(11).ProductId, row(12).ProductId, row(13).ProductId]).toEqual([11, 12, 13]);
    expect(got).toEqual([11, 12, 11, 999_999, 13].flatMap((id): unknown[] =>
      id === 999_999 ? [404, 404, 404] : [row(id), { Name: row(id).Name, CategoryId: row(id).CategoryId }, { Name: row(id).Name, Category: { CategoryId: row(id).CategoryId } }],
    ));
  });

  it('timestamps render the same at the top level and inside $expand', async () => {
    const top = (await send({ url: `${P}/7?$select=CreatedAt` })).json() as { CreatedAt: string };
    expect(top.CreatedAt).toBe('2024-01-01T04:19:00.000Z');
    const res = await send({ url: '/api/pg/Inventory/Categories?$select=Name&$expand=Products($select=ProductId,CreatedAt)&$filter=CategoryId eq 8' });
    const body = res.json() as { value: Array<{ Products: Array<{ ProductId: number; CreatedAt: string }> }> };
    expect(body.value[0]!.Products.find((p) => p.ProductId === 7)).toEqual({ ProductId: 7, CreatedAt: '2024-01-01T04:19:00.000Z' });
    for (const product of body.value[0]!.Products) expect(product.CreatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('a database that is down: 500 with traceId, logged as a connection failure', async () => {
    const res = await send({ url: '/api/down/Inventory/Products' });
    expect(res.statusCode).toBe(500);
    const body = res.json() as { traceId: string };
    expect(body).toEqual({ success: false, error: 'Error processing. Please check the logs for more details.', traceId: expect.any(String) });
    expect(body.traceId.length).toBeGreaterThan(8);
    const logged = server.logs.lines().find((l) => l['event'] === 'sql.connection_failed');
    expect(logged).toMatchObject({ environment: 'down', provider: 'postgres', code: 'ECONNREFUSED' });
    expect(server.logs.text()).not.toContain('postgres://postgres@127.0.0.1');
  });

  it('recovers by itself when that database comes up', async () => {
    const later = await startPostgres({ port: downPort });
    try {
      const res = await send({ url: '/api/down/Inventory/Products/7?$select=Name' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ Name: 'Tiny Widget 7' });
    } finally {
      await later.stop();
    }
  });

  it('the embedded default (PGlite demo database) answers the same query language', async () => {
    const res = await send({ url: "/api/demo/Inventory/Products?$select=ProductId,Name&$filter=startswith(Name,'Golden') and Price lt 20&$orderby=Price&$top=3" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true, count: 3,
      value: [{ ProductId: 1086, Name: 'Golden Mug 1086' }, { ProductId: 4666, Name: 'Golden Chair 4666' }, { ProductId: 8246, Name: 'Golden Lamp 8246' }],
      nextLink: "/api/demo/Inventory/Products?$filter=startswith(Name,'Golden')%20and%20Price%20lt%2020&$orderby=Price&$select=ProductId,Name&$top=3&$skip=3",
    });
  });
});
