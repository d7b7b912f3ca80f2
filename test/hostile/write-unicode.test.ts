/**
 * SQL writes carrying a lone UTF-16 surrogate (`"\ud800"` is valid JSON, not valid Unicode): the
 * driver encodes it as U+FFFD, so the old answer was a 201 whose stored record was not what was
 * sent. Now a 422 naming the column before any SQL, nothing stored, in Table mode (single and
 * batch) and through a procedure; a real pair (an emoji) is stored exactly. Embedded database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedTestServer, type SqlTestServer } from '../sql/http-server.js';

let server: SqlTestServer;
const W = '/api/demo/Inventory/Warehouses';

beforeAll(async () => {
  server = await startEmbeddedTestServer();
}, 120_000);
afterAll(async () => server?.close());

async function send(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: string) {
  return server.app.inject({
    method,
    url,
    headers: { authorization: server.authorization, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload }),
  });
}

const snapshot = async () => [
  (await send('GET', `${W}?$orderby=WarehouseId&$top=1000`)).json(),
  (await send('GET', '/api/demo/Sales/Orders/4')).json(),
];

describe('a lone surrogate in a written value: 422, nothing stored', () => {
  it.each([
    ['POST, high half alone', 'POST', W, '{"Code":"UC-001","Name":"x\\ud800"}', 'Name'],
    ['PATCH, low half alone', 'PATCH', `${W}/1`, '{"City":"\\udc00a"}', 'City'],
    ['batch POST, one row of two', 'POST', W, '[{"Code":"UC-002","Name":"fine"},{"Code":"UC-003","Name":"\\udbff"}]', '[1].Name'],
    ['procedure PATCH', 'PATCH', '/api/demo/Sales/Orders/4', '{"Status":"Paid\\ud83d"}', 'Status'],
  ] as const)('%s', async (_name, method, url, payload, field) => {
    const before = await snapshot();
    const res = await send(method, url, payload);
    const name = field.replace(/^\[\d+\]\./, '');
    const message = `${name} must be valid Unicode (it contains a lone surrogate)`;
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ success: false, error: 'Validation failed', details: [{ field, message: field === name ? message : `Row 1: ${message}` }] });
    expect(await snapshot()).toEqual(before);
  });

  it('a surrogate pair is a character: stored and answered exactly', async () => {
    const res = await send('POST', W, '{"Code":"UC-004","Name":"ship \\ud83d\\udea2"}');
    expect(res.statusCode).toBe(201);
    expect((res.json() as { result: { Name: string } }).result.Name).toBe('ship 🚢');
  });
});
