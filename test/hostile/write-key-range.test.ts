/**
 * A SQL write (PUT, PATCH, MERGE, DELETE; Table mode) whose record key lies outside the key
 * column's type (id 99999999999 on an `integer` key) names a record that cannot exist. A read of
 * that id answers 404; the write answered 400 "A value does not match the type or size of its
 * column" (PUT, PATCH, MERGE) after running SQL the database refused, and DELETE ran its SQL too.
 * Now each is the 404 a write gives for a missing record, `Record not found`, and no SQL on the
 * table runs (column-bounds.ts, from the catalogue read of the column kinds). A batch DELETE with such a key is the
 * batch's 404 `Record not found: nothing was deleted`, nothing removed. The embedded database
 * (PGlite) and a real PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgAndEmbeddedTestServer, type SqlTestServer } from '../sql/http-server.js';
import { sendAs, sqlNaming, type KeyMethod } from './key-requests.js';

let server: SqlTestServer;

beforeAll(async () => {
  server = await startPgAndEmbeddedTestServer();
}, 180_000);
afterAll(async () => server?.close());

type Method = Exclude<KeyMethod, 'HEAD'>;
const send = (method: Method, url: string, payload?: unknown) => sendAs(server, method, url, payload);

const NOT_FOUND = { success: false, error: 'Record not found' };
const BATCH_NOT_FOUND = { success: false, error: 'Record not found: nothing was deleted' };

describe.each(['demo', 'pg'])('a write key beyond the key column on %s', (env) => {
  const W = `/api/${env}/Inventory/Warehouses`;
  const table = async (): Promise<unknown> => (await send('GET', `${W}?$orderby=WarehouseId&$top=1000`)).json();

  const tableSql = (request: () => Promise<unknown>): Promise<string[]> => sqlNaming(server, env, '"Warehouses"', request);

  beforeAll(async () => {
    // the driver started and the key column's type read (what the first write of a process does)
    expect((await send('PATCH', `${W}/2147483647`, { Name: 'x' })).statusCode).toBe(404);
  });

  it('a read of such a key is 404 (what the writes now agree with)', async () => {
    expect((await send('GET', `${W}/99999999999`)).statusCode).toBe(404);
  });

  it.each<[string, Method, string, unknown]>([
    ['PUT /99999999999', 'PUT', '/99999999999', { Code: 'NL-009', Name: 'x' }],
    ['PATCH /2147483648 (one above the integer range)', 'PATCH', '/2147483648', { Name: 'x' }],
    ['MERGE /-2147483649 (one below)', 'MERGE', '/-2147483649', { Name: 'x' }],
    ['PATCH with the key only in the body', 'PATCH', '', { WarehouseId: 99999999999, Name: 'x' }],
    ['DELETE /99999999999', 'DELETE', '/99999999999', undefined],
    ['DELETE ?id=99999999999', 'DELETE', '?id=99999999999', undefined],
  ])('%s: 404 Record not found, no SQL on the table, nothing changed', async (_name, method, where, payload) => {
    const before = await table();
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    const sql = await tableSql(async () => (answer = await send(method, `${W}${where}`, payload)));
    expect(answer?.json()).toEqual(NOT_FOUND);
    expect(answer?.statusCode).toBe(404);
    expect(sql).toEqual([]);
    expect(await table()).toEqual(before);
  });

  it('an absent key inside the range still gets the same 404 (from the database)', async () => {
    const res = await send('PUT', `${W}/2147483647`, { Code: 'NL-009', Name: 'x' });
    expect(res.json()).toEqual(NOT_FOUND);
    expect(res.statusCode).toBe(404);
  });

  it('a batch DELETE with one such key: the batch 404, no SQL on the table, nothing removed', async () => {
    expect((await send('GET', `${W}/1`)).statusCode).toBe(200); // seeded
    const before = await table();
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    const sql = await tableSql(async () => (answer = await send('DELETE', W, [1, 99999999999])));
    expect(answer?.json()).toEqual(BATCH_NOT_FOUND);
    expect(answer?.statusCode).toBe(404);
    expect(sql).toEqual([]);
    expect(await table()).toEqual(before);
  });
});
