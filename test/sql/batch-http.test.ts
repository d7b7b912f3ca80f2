/**
 * Batch writes through the running server on a real PostgreSQL and the embedded PGlite demo
 * database (the same cases on both, in order): Inventory/Warehouses (Table mode), the server's
 * Sql:MaxBatchRows set to 100.
 * After every refused batch the table must be unchanged (`unchanged: true`): all or nothing.
 */
import pgClient from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from './http-server.js';

let pg: TestPostgres;
let server: SqlTestServer;

beforeAll(async () => {
  pg = await startPostgres();
  server = await startSqlTestServer(pg.url, pg.port + 1, { logger: false, settings: { Sql: { MaxBatchRows: 100 } } });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

const W = 'Inventory/Warehouses';

interface Given {
  readonly method: 'POST' | 'PUT' | 'DELETE' | 'GET';
  readonly path: string;
  readonly payload?: unknown;
  /** Remember the answer's `id` list as `$A0`, `$A1`, ... */
  readonly save?: string;
}
interface Want {
  readonly status: number;
  readonly body: unknown;
  readonly unchanged?: boolean;
}

const row = (code: string, name: string, extra: Record<string, unknown> = {}) => ({ Code: code, Name: name, ...extra });
const stored = (id: string, code: string, name: string, extra: Record<string, unknown> = {}) =>
  ({ WarehouseId: id, Code: code, Name: name, City: null, Capacity: null, ContactId: null, IsActive: true, Notes: '***', ...extra });

const cases: Array<[string, { given: Given; want: Want }]> = [
  ['POST of an array: 201, every row stored in one statement, answered in order after transforms', {
    given: { method: 'POST', path: W, save: '$A', payload: [row('FR-101', 'Gent', { City: 'Gent', Notes: 'x' }), row('FR-102', 'Luik', { Capacity: 10 }), row('FR-103', 'Brugge')] },
    want: { status: 201, body: { success: true, message: 'Records created successfully', count: 3, id: ['$A0', '$A1', '$A2'], result: [
      stored('$A0', 'FR-101', 'Gent', { City: 'Gent' }), stored('$A1', 'FR-102', 'Luik', { Capacity: 10 }), stored('$A2', 'FR-103', 'Brugge'),
    ] } },
  }],
  ['the rows are there', { given: { method: 'GET', path: `${W}/$A1` }, want: { status: 200, body: stored('$A1', 'FR-102', 'Luik', { Capacity: 10 }) } }],
  ['a failing row: 422 naming the row index and the column, nothing stored', {
    given: { method: 'POST', path: W, payload: [row('FR-104', 'Namen'), row('fr4', 'Bergen'), { Code: 'FR-106', Colour: 'red' }] },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [
      { field: '[1].Code', message: 'Row 1: Code must be a country code and three digits, like NL-001' },
      { field: '[2].Colour', message: 'Row 2: Colour is not an allowed property' },
      { field: '[2].Name', message: 'Row 2: Name is required' },
    ] } },
  }],
  ['a row the database refuses (unique): 409 naming the row, the rows before it not stored either', {
    given: { method: 'POST', path: W, payload: [row('FR-104', 'Namen'), row('NL-001', 'Duplicate')] },
    want: { status: 409, unchanged: true, body: { success: false, error: 'A record with this Code already exists (row 1)' } },
  }],
  ['two rows of one batch with the same unique value: the later row is named', {
    given: { method: 'POST', path: W, payload: [row('FR-104', 'Namen'), row('FR-105', 'Mons'), row('FR-104', 'Again')] },
    want: { status: 409, unchanged: true, body: { success: false, error: 'A record with this Code already exists (row 2)' } },
  }],
  ['a row the database refuses (foreign key): 422 naming the row and the column, nothing stored', {
    given: { method: 'POST', path: W, payload: [row('FR-104', 'Namen'), row('FR-105', 'Mons', { ContactId: 999999 })] },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: '[1].ContactId', message: 'Row 1: ContactId refers to a record that does not exist' }] } },
  }],
  ['a row the database refuses (check): 422 naming the column (the database does not name the value)', {
    given: { method: 'POST', path: W, payload: [row('FR-104', 'Namen'), row('FR-105', 'Mons', { Capacity: -1 })] },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'Capacity', message: 'Capacity is not an allowed value' }] } },
  }],
  ['more rows than Sql:MaxBatchRows: 413, nothing stored', {
    given: { method: 'POST', path: W, payload: Array.from({ length: 101 }, (_, i) => row(`LU-${String(i).padStart(3, '0')}`, 'x')) },
    want: { status: 413, unchanged: true, body: { success: false, error: 'A batch may hold at most 100 rows; this one has 101' } },
  }],
  ['an array mixing objects and other values: 400', {
    given: { method: 'POST', path: W, payload: [row('FR-104', 'Namen'), 5] },
    want: { status: 400, unchanged: true, body: { success: false, error: 'Every item of a batch must be a JSON object (item 1 is not)' } },
  }],
  ['an array of arrays: 400', {
    given: { method: 'POST', path: W, payload: [[row('FR-104', 'Namen')]] },
    want: { status: 400, unchanged: true, body: { success: false, error: 'Every item of a batch must be a JSON object (item 0 is not)' } },
  }],
  ['an empty array: 400', { given: { method: 'POST', path: W, payload: [] }, want: { status: 400, unchanged: true, body: { success: false, error: 'Request body cannot be empty' } } }],
  ['PUT takes one record, not an array', {
    given: { method: 'PUT', path: `${W}/$A0`, payload: [row('FR-101', 'Gent')] },
    want: { status: 400, unchanged: true, body: { success: false, error: 'Request body must be a JSON object' } },
  }],
  ['a stored-procedure endpoint takes no batch', {
    given: { method: 'POST', path: 'Sales/Orders', payload: [{ CustomerId: 5 }] },
    want: { status: 400, unchanged: true, body: { success: false, error: 'Request body must be a JSON object' } },
  }],
  ['DELETE of several keys with one missing: 404, none removed', {
    given: { method: 'DELETE', path: W, payload: ['$A0', 999999] },
    want: { status: 404, unchanged: true, body: { success: false, error: 'Record not found: nothing was deleted' } },
  }],
  ['DELETE with a key that is not a scalar: 400', {
    given: { method: 'DELETE', path: W, payload: ['$A0', { WarehouseId: 1 }] },
    want: { status: 400, unchanged: true, body: { success: false, error: 'Every item of a batch DELETE must be a record key, a whole number or a text (item 1 is not)' } },
  }],
  ['DELETE of several keys: 200, all removed in one statement', {
    given: { method: 'DELETE', path: W, payload: ['$A0', '$A1', '$A2'] },
    want: { status: 200, body: { success: true, message: 'Records deleted successfully', count: 3, result: null, id: ['$A0', '$A1', '$A2'] } },
  }],
  ['they are gone', { given: { method: 'GET', path: `${W}/$A1` }, want: { status: 404, body: { success: false, error: 'No record found with WarehouseId = $A1' } } }],
];

async function send(env: string, given: Given) {
  const payload = given.payload === undefined ? undefined : JSON.stringify(given.payload);
  return server.app.inject({
    method: given.method,
    url: `/api/${env}/${given.path}`,
    headers: { authorization: server.authorization, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function warehouses(env: string): Promise<unknown> {
  return (await send(env, { method: 'GET', path: `${W}?$top=1000&$orderby=WarehouseId` })).json();
}

/** `$A1` variables replaced: a whole string by the number, inside a string by its text (longest names first). */
function subst<T>(value: T, vars: ReadonlyMap<string, number>): T {
  if (value === undefined) return value;
  let text = JSON.stringify(value);
  for (const [name, id] of [...vars].sort((a, b) => b[0].length - a[0].length)) text = text.replaceAll(`"${name}"`, String(id)).replaceAll(name, String(id));
  return JSON.parse(text) as T;
}

describe.each(['pg', 'demo'])('SQL batch writes on %s', (env) => {
  const vars = new Map<string, number>();
  it.each(cases)('%s', async (_name, raw) => {
    const given = subst(raw.given, vars);
    const before = raw.want.unchanged ? await warehouses(env) : null;
    const res = await send(env, given);
    if (given.save) expect(res.statusCode, res.body).toBe(raw.want.status);
    if (given.save) (res.json() as { id: number[] }).id.forEach((id, i) => vars.set(`${given.save}${i}`, id));
    const want = subst(raw.want, vars);
    expect(res.json()).toEqual(want.body);
    expect(res.statusCode).toBe(want.status);
    if (before !== null) expect(await warehouses(env)).toEqual(before);
  });
});

/**
 * All or nothing under concurrent writes (PostgreSQL; PGlite has one connection, so no race):
 * another transaction deletes one of the batch's records while the batch DELETE runs. The batch
 * must then remove none of them (its 404 says so), not the others.
 */
describe('a batch DELETE racing another delete on pg', () => {
  it('one key deleted by a concurrent transaction while the batch waits: 404 and the other key is kept', async () => {
    const created = await send('pg', { method: 'POST', path: W, payload: [row('RC-001', 'Race one'), row('RC-002', 'Race two')] });
    expect(created.statusCode, created.body).toBe(201);
    const [first, second] = (created.json() as { id: number[] }).id as [number, number];
    const other = new pgClient.Client({ connectionString: pg.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('DELETE FROM inventory."Warehouses" WHERE "WarehouseId" = $1', [first]);
      const batch = send('pg', { method: 'DELETE', path: W, payload: [first, second] });
      // the batch statement waits for the other transaction's lock on the first row
      for (let waited = 0; waited < 10_000; waited += 50) {
        const { rows } = await pgAdmin(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM "inventory"."Warehouses"%'`);
        if ((rows[0] as { n: number }).n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await other.query('COMMIT');
      const res = await batch;
      expect(res.json()).toEqual({ success: false, error: 'Record not found: nothing was deleted' });
      expect(res.statusCode).toBe(404);
      const kept = await send('pg', { method: 'GET', path: `${W}/${second}` });
      expect(kept.statusCode, 'the batch answered "nothing was deleted": the other record must still be there').toBe(200);
    } finally {
      await other.end();
    }
    expect((await send('pg', { method: 'DELETE', path: `${W}/${second}` })).statusCode).toBe(200);
  });
});

async function pgAdmin(sql: string) {
  const client = new pgClient.Client({ connectionString: pg.url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}
