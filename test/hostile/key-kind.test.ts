/**
 * A record key of the wrong kind (`abc`, `1.5` on an integer key) names no record, like a key
 * outside the key column's range (write-key-range.test.ts). Every method answered it its own way:
 * GET and HEAD 400 `Invalid key 'abc': ... is a number`, PUT, PATCH and MERGE 400 `A value does not
 * match the type or size of its column` after SQL the database refused, DELETE 404 after that SQL.
 * A procedure-backed endpoint (Sales/Orders) passed such keys, and keys outside the range, to its
 * procedure: 400 from the database's value error. Now every method on both write strategies is the
 * 404 of a missing record (reads `No record found with <Key> = <id>`, writes `Record not found`),
 * before any SQL on the table or procedure (column-bounds.ts). The embedded database (PGlite) and
 * a real PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgAndEmbeddedTestServer, type SqlTestServer } from '../sql/http-server.js';
import { sendAs, sqlNaming as sqlOn, type KeyMethod as Method } from './key-requests.js';

let server: SqlTestServer;

beforeAll(async () => {
  server = await startPgAndEmbeddedTestServer();
}, 180_000);
afterAll(async () => server?.close());

const send = (method: Method, url: string, payload?: unknown) => sendAs(server, method, url, payload);

const WRITE_NOT_FOUND = { success: false, error: 'Record not found' };

describe.each(['demo', 'pg'])('a record key of the wrong kind on %s', (env) => {
  const W = `/api/${env}/Inventory/Warehouses`;
  const O = `/api/${env}/Sales/Orders`;

  const sqlNaming = (object: string, request: () => Promise<unknown>): Promise<string[]> => sqlOn(server, env, object, request);

  beforeAll(async () => {
    // the driver started and both objects' key column types read (what the first request of a process does)
    expect((await send('GET', `${W}/1`)).statusCode).toBe(200);
    expect((await send('GET', `${O}/1`)).statusCode).toBe(200);
  });

  it.each<[string, string]>([['abc', 'abc'], ['1.5', '1.5'], ['a GUID', '6f9619ff-8b86-d011-b42d-00c04fc964ff']])(
    'GET /%s: 404 No record found, no SQL on the table', async (_name, key) => {
      let answer: Awaited<ReturnType<typeof send>> | undefined;
      const sql = await sqlNaming('"Warehouses"', async () => (answer = await send('GET', `${W}/${key}`)));
      expect(answer?.json()).toEqual({ success: false, error: `No record found with WarehouseId = ${key}` });
      expect(answer?.statusCode).toBe(404);
      expect(sql).toEqual([]);
    },
  );

  it('HEAD /abc: 404', async () => {
    expect((await send('HEAD', `${W}/abc`)).statusCode).toBe(404);
  });

  const ORDER = { CustomerId: 5, OrderDate: '2025-02-03', Status: 'New', Total: 1 };
  it.each<[string, Method, string, string, unknown]>([
    ['Table mode PUT /abc', 'PUT', W, '/abc', { Code: 'NL-009', Name: 'x' }],
    ['Table mode PATCH /abc', 'PATCH', W, '/abc', { Name: 'x' }],
    ['Table mode MERGE /1.5', 'MERGE', W, '/1.5', { Name: 'x' }],
    ['Table mode DELETE /abc', 'DELETE', W, '/abc', undefined],
    ['Table mode DELETE ?id=abc', 'DELETE', W, '?id=abc', undefined],
    ['procedure PUT /abc', 'PUT', O, '/abc', ORDER],
    ['procedure PATCH /abc', 'PATCH', O, '/abc', { Status: 'Paid' }],
    ['procedure MERGE /1.5', 'MERGE', O, '/1.5', { Status: 'Paid' }],
    ['procedure DELETE /abc', 'DELETE', O, '/abc', undefined],
    ['procedure PATCH /99999999999 (outside integer)', 'PATCH', O, '/99999999999', { Status: 'Paid' }],
    ['procedure PUT /2147483648 (one above integer)', 'PUT', O, '/2147483648', ORDER],
    ['procedure DELETE ?id=-2147483649 (one below integer)', 'DELETE', O, '?id=-2147483649', undefined],
  ])('%s: 404 Record not found, no SQL on the table or procedure', async (_name, method, base, where, payload) => {
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    const object = base === W ? '"Warehouses"' : 'SaveOrder';
    const sql = await sqlNaming(object, async () => (answer = await send(method, `${base}${where}`, payload)));
    expect(answer?.json()).toEqual(WRITE_NOT_FOUND);
    expect(answer?.statusCode).toBe(404);
    expect(sql).toEqual([]);
  });

  it('Table mode batch DELETE with a key of the wrong kind: the batch 404, no SQL on the table', async () => {
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    const sql = await sqlNaming('"Warehouses"', async () => (answer = await send('DELETE', W, [1, 'abc'])));
    expect(answer?.json()).toEqual({ success: false, error: 'Record not found: nothing was deleted' });
    expect(answer?.statusCode).toBe(404);
    expect(sql).toEqual([]);
    expect((await send('GET', `${W}/1`)).statusCode).toBe(200);
  });

  it('procedure: a missing key of the right kind still reaches the procedure (its own refusal)', async () => {
    const res = await send('PATCH', `${O}/999999`, { Status: 'Paid' });
    expect(res.json()).toEqual({ success: false, error: 'Order 999999 does not exist' });
    expect(res.statusCode).toBe(400);
  });
});
