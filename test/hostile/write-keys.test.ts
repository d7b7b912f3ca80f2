/**
 * A SQL write whose record key is given more than once: `?id=` twice, a path key and `?id=`, or a
 * URL key together with a JSON array of keys on DELETE. The old answer picked one silently (the
 * first `?id=`, the path over `?id=`, and on DELETE `?id=5` with body `[6]` removed 6, the record
 * the URL did not name). Now each is a 400 `SQL_KEY_AMBIGUOUS` before any SQL, and nothing changes;
 * one key in one place still works. Embedded demo database (Inventory/Warehouses in Table mode,
 * Sales/Orders through its procedure).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedTestServer, type SqlTestServer } from '../sql/http-server.js';

let server: SqlTestServer;
const W = '/api/demo/Inventory/Warehouses';
const ids: number[] = [];

async function send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return server.app.inject({
    method,
    url,
    headers: { authorization: server.authorization, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

async function table(): Promise<unknown> {
  return (await send('GET', `${W}?$orderby=WarehouseId&$top=1000`)).json();
}

beforeAll(async () => {
  server = await startEmbeddedTestServer();
  for (const code of ['KA-001', 'KA-002', 'KA-003']) {
    const res = await send('POST', W, { Code: code, Name: code });
    expect(res.statusCode).toBe(201);
    ids.push((res.json() as { id: number }).id);
  }
}, 120_000);
afterAll(async () => server?.close());

const AMBIGUOUS = { success: false, error: 'The record key is given more than once: give it once, in the path, as ?id= or (DELETE) as a JSON array body' };

describe('a record key given twice: 400, nothing written', () => {
  it.each([
    ['DELETE ?id=A with the body [B]', () => send('DELETE', `${W}?id=${ids[0]}`, [ids[1]])],
    ['DELETE /A with the body [B]', () => send('DELETE', `${W}/${ids[0]}`, [ids[1]])],
    ['DELETE ?id=A&id=B', () => send('DELETE', `${W}?id=${ids[0]}&id=${ids[1]}`)],
    ['DELETE /A?id=B', () => send('DELETE', `${W}/${ids[0]}?id=${ids[1]}`)],
    ['PATCH /A?id=B', () => send('PATCH', `${W}/${ids[0]}?id=${ids[1]}`, { City: 'Moved' })],
    ['PATCH ?id=A&id=B', () => send('PATCH', `${W}?id=${ids[0]}&id=${ids[1]}`, { City: 'Moved' })],
    ['procedure: DELETE /A with the body [B]', () => send('DELETE', '/api/demo/Sales/Orders/1', [2])],
  ])('%s', async (_name, request) => {
    const before = await table();
    const orders = (await send('GET', '/api/demo/Sales/Orders?$filter=OrderId le 2')).json();
    const res = await request();
    expect(res.json()).toEqual(AMBIGUOUS);
    expect(res.statusCode).toBe(400);
    expect(await table()).toEqual(before);
    expect((await send('GET', '/api/demo/Sales/Orders?$filter=OrderId le 2')).json()).toEqual(orders);
  });
});

describe('one key in one place still writes', () => {
  it('PATCH /A, DELETE ?id=A, DELETE [B, C]', async () => {
    expect((await send('PATCH', `${W}/${ids[0]}`, { City: 'Moved' })).statusCode).toBe(200);
    expect((await send('DELETE', `${W}?id=${ids[0]}`)).json()).toMatchObject({ success: true, id: ids[0] });
    expect((await send('DELETE', W, [ids[1], ids[2]])).json()).toMatchObject({ success: true, count: 2 });
  });
});
