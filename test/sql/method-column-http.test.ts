/**
 * A column or parameter named `Method` (any case) through the running server on a real PostgreSQL
 * (`pg`) and the embedded PGlite database (`demo`): in Table mode read and written like any other
 * column, as a table-valued function's parameter like any other; with procedure writes `@Method`
 * carries the verb, so a body value for the column is a 422 naming it (it was a 500: a second
 * argument named `Method`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startServerWithEndpoints, type SqlTestServer } from './http-server.js';

const ENVIRONMENTS = ['pg', 'demo'] as const;
const CALLS = {
  DatabaseSchema: 'inventory',
  DatabaseObjectName: 'Calls',
  PrimaryKey: 'CallId',
  AllowedColumns: ['CallId', 'Method', 'method;Verb', 'Url'],
  AllowedMethods: ['GET', 'QUERY', 'POST', 'PUT', 'PATCH', 'DELETE'],
  WriteMode: 'Table',
};
const CALLS_SNAPSHOT = { type: 'Table', primaryKey: ['CallId'], columns: [
  { identity: true, name: 'CallId', nullable: false, type: 'integer' }, { name: 'Method', nullable: true, type: 'text' },
  { name: 'method', nullable: true, type: 'text' }, { name: 'Url', nullable: true, type: 'text' }] };
const CREATE = `CREATE TABLE IF NOT EXISTS inventory."Calls" ("CallId" integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "Method" text, "method" text, "Url" text)`;

// a table-valued function with a parameter `Method` (and a column `Method`)
const BY_METHOD = {
  DatabaseSchema: 'inventory',
  DatabaseObjectName: 'CallsByMethod',
  DatabaseObjectType: 'TableValuedFunction',
  AllowedColumns: ['CallId', 'Method', 'Url'],
  AllowedMethods: ['GET'],
  FunctionParameters: [{ Name: 'Method', SqlType: 'text', Source: 'Query', Required: true }],
};
const BY_METHOD_SNAPSHOT = { type: 'Function', parameters: [{ mode: 'IN', name: 'Method', type: 'text' }], columns: [
  { name: 'CallId', nullable: true, type: 'integer' }, { name: 'Method', nullable: true, type: 'text' }, { name: 'Url', nullable: true, type: 'text' }] };
const CREATE_FN = `CREATE OR REPLACE FUNCTION inventory."CallsByMethod"("Method" text)
  RETURNS TABLE ("CallId" integer, "Method" text, "Url" text) LANGUAGE sql AS
  $fn$ SELECT c."CallId", c."Method", c."Url" FROM inventory."Calls" c WHERE c."Method" = $1 $fn$`;

// procedure writes over the same table: the procedure's `@Method` is the verb (spec)
const SAVED_CALLS = { ...CALLS, AllowedColumns: ['CallId', 'Method', 'Url'], AllowedMethods: ['GET', 'POST', 'PATCH'], WriteMode: undefined, Procedure: 'inventory.SaveCall' };
const SAVE_SNAPSHOT = { type: 'Procedure', columns: [], parameters: [{ mode: 'IN', name: 'Method', type: 'text' },
  { hasDefault: true, mode: 'INOUT', name: 'CallId', type: 'integer' }, { hasDefault: true, mode: 'IN', name: 'Url', type: 'text' }] };
const CREATE_SAVE = `CREATE OR REPLACE PROCEDURE inventory."SaveCall"("Method" text, INOUT "CallId" integer DEFAULT NULL, "Url" text DEFAULT NULL)
  LANGUAGE plpgsql AS $p$ BEGIN
  IF "Method" = 'INSERT' THEN INSERT INTO inventory."Calls" ("Url") VALUES ("Url") RETURNING inventory."Calls"."CallId" INTO "CallId"; END IF;
  END $p$`;

let server: SqlTestServer;
const call = (method: string, url: string, payload?: unknown) => callJson(server, method, url, payload);

beforeAll(async () => {
  server = await startServerWithEndpoints({ 'SQL/Inventory/Calls': CALLS, 'SQL/Inventory/CallsByMethod': BY_METHOD, 'SQL/Inventory/SavedCalls': SAVED_CALLS }, { 'inventory.Calls': CALLS_SNAPSHOT, 'inventory.CallsByMethod': BY_METHOD_SNAPSHOT, 'inventory.SaveCall': SAVE_SNAPSHOT });
  for (const env of ENVIRONMENTS) {
    expect((await call('GET', `/api/${env}/Inventory/Warehouses?$top=1`)).statusCode).toBe(200);
    await server.drivers.ready(env)!.query(CREATE, []);
    await server.drivers.ready(env)!.query(CREATE_FN, []);
    await server.drivers.ready(env)!.query(CREATE_SAVE, []);
  }
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe.each(ENVIRONMENTS)('a column named Method on %s', (env) => {
  const base = `/api/${env}/Inventory/Calls`;
  it('POST, GET, $filter, PATCH, PUT, DELETE', async () => {
    const created = await call('POST', base, { Method: 'GET', Verb: 'get', Url: '/a' });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: number }).id;
    const list = await call('GET', `${base}?$filter=Method eq 'GET' and Verb eq 'get'&$select=CallId,Method,Verb`);
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { value: unknown[] }).value).toContainEqual({ CallId: id, Method: 'GET', Verb: 'get' });
    const patched = await call('PATCH', `${base}/${id}`, { Method: 'POST' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((patched.json() as { result: unknown }).result).toEqual({ CallId: id, Method: 'POST', Verb: 'get', Url: '/a' });
    const put = await call('PUT', `${base}/${id}`, { Method: 'PUT', Verb: 'put', Url: '/b' });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call('GET', `${base}/${id}`)).json()).toEqual({ CallId: id, Method: 'PUT', Verb: 'put', Url: '/b' });
    const query = await call('QUERY', base, { filter: "Method eq 'PUT'" });
    expect(query.statusCode, query.body).toBe(200);
    const del = await call('DELETE', `${base}/${id}`);
    expect(del.statusCode, del.body).toBe(200);
  });
});

describe.each(ENVIRONMENTS)('a function parameter named Method on %s', (env) => {
  it('GET with ?Method=', async () => {
    await call('POST', `/api/${env}/Inventory/Calls`, { Method: 'HEAD', Url: '/h' });
    const res = await call('GET', `/api/${env}/Inventory/CallsByMethod?Method=HEAD`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { value: { Method: string }[] }).value.map((r) => r.Method)).toContain('HEAD');
  });
});

describe.each(ENVIRONMENTS)('procedure writes of an endpoint with a column Method on %s', (env) => {
  const base = `/api/${env}/Inventory/SavedCalls`;
  it('a body value for Method is a 422 naming it (it cannot be a second @Method), never a 500; the rest is written, the column read', async () => {
    const refused = await call('POST', base, { Method: 'HEAD', Url: '/p' });
    expect(refused.json()).toEqual({ success: false, error: 'Validation failed', details: [
      { field: 'Method', message: 'Method cannot be written through the procedure: its parameter @Method carries the verb' }] });
    expect(refused.statusCode).toBe(422);
    const created = await call('POST', base, { Url: '/p' });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: number }).id;
    const read = await call('GET', `${base}/${id}`);
    expect([read.statusCode, read.json()]).toEqual([200, { CallId: id, Method: null, Url: '/p' }]);
  });
});
