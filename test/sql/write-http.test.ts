/**
 * SQL writes through the running server (real compiler output, real pipeline) on a real
 * PostgreSQL and on the embedded PGlite demo database: the same table of cases runs on both, in
 * order (the identity values follow from the seed: warehouses 1..3 exist, new ones get 4, 5, ...).
 * Table mode: Inventory/Warehouses; stored procedure: Sales/Orders (sales."SaveOrder").
 * After every refused write the table must be unchanged (`unchanged: true`).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from './http-server.js';
import { subst, W, WRITE_CASES as cases, type WriteGiven as Given } from './write-cases.js';

let pg: TestPostgres;
let server: SqlTestServer;

beforeAll(async () => {
  pg = await startPostgres();
  server = await startSqlTestServer(pg.url, pg.port + 1, { logger: true });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

async function send(env: string, given: Given) {
  let payload: string | undefined;
  if (given.payload !== undefined) payload = typeof given.payload === 'string' ? given.payload : JSON.stringify(given.payload);
  const contentType = given.contentType === undefined ? (payload === undefined ? undefined : 'application/json') : given.contentType;
  return server.app.inject({
    method: given.method,
    url: `/api/${env}/${given.path}`,
    headers: { authorization: server.authorization, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function warehouses(env: string): Promise<unknown> {
  const res = await send(env, { method: 'GET', path: `${W}?$top=1000&$orderby=WarehouseId` });
  return res.json();
}

describe.each(['pg', 'demo'])('SQL writes on %s', (env) => {
  // identities differ between the databases (PGlite's cached demo starts its sequences 32 later)
  const vars = new Map<string, number>();
  it.each(cases)('%s', async (_name, raw) => {
    const given = subst(raw.given, vars);
    const before = raw.want.unchanged ? await warehouses(env) : null;
    const logged = server.logs.lines().length;
    const res = await send(env, given);
    if (given.save) vars.set(given.save, (res.json() as { id: number }).id);
    const want = subst(raw.want, vars);
    expect(res.json()).toEqual(want.body);
    expect(res.statusCode).toBe(want.status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const [name, value] of Object.entries(want.headers ?? {})) expect(res.headers[name]).toBe(value?.replace('{env}', env));
    if (before !== null) expect(await warehouses(env)).toEqual(before);
    // the refusal is thrown as its own registry code where it happens (the request's log line names it)
    if (want.code !== undefined) {
      const url = `/api/${env}/${given.path}`;
      await vi.waitFor(() => {
        const line = server.logs.lines().slice(logged).find((l) => l['url'] === url && l['method'] === given.method && l['statusCode'] === want.status);
        expect(line?.['code']).toBe(want.code);
      });
    }
  });
});

describe('SQL write failures that are not the client\'s', () => {
  it('a database that is down: 500 with traceId', async () => {
    const res = await send('down', { method: 'POST', path: W, payload: { Code: 'NL-004', Name: 'x' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, error: 'Error processing. Please check the logs for more details.', traceId: expect.any(String) });
  });
});
