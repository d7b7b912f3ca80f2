/**
 * A database refusal that concerns a column the endpoint does not expose, through the running
 * server on a real PostgreSQL (`pg`) and the embedded PGlite database (`demo`), and SQL Server
 * (`ms`) with MSSQL_URL: the answer never names that column or the constraint (schema internals the
 * endpoint hides); it says what was refused without them. Inventory/WarehouseCodes (added here) writes
 * inventory.Warehouses with only WarehouseId, Code and City allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startServerWithEndpoints, type SqlTestServer } from './http-server.js';

const ENVIRONMENTS = ['pg', 'demo', ...(process.env['MSSQL_URL'] ? ['ms' as const] : [])] as const;
const CODES = {
  DatabaseSchema: 'inventory',
  DatabaseObjectName: 'Warehouses',
  PrimaryKey: 'WarehouseId',
  AllowedColumns: ['WarehouseId', 'Code', 'City'],
  AllowedMethods: ['GET', 'POST', 'PATCH', 'DELETE'],
  WriteMode: 'Table',
};

let server: SqlTestServer;

beforeAll(async () => {
  server = await startServerWithEndpoints({ 'SQL/Inventory/WarehouseCodes': CODES });
}, 180_000);

afterAll(async () => {
  await server?.close();
});

const call = (method: string, url: string, payload?: unknown) => callJson(server, method, url, payload);

describe.each(ENVIRONMENTS)('refusals over hidden columns on %s', (env) => {
  it('NOT NULL of a column the endpoint does not expose (WarehouseName): 422 without its name', async () => {
    const res = await call('POST', `/api/${env}/Inventory/WarehouseCodes`, { Code: 'HC-001', City: 'Hidden' });
    expect(res.json()).toEqual({ success: false, error: 'Validation failed', details: [{ field: 'body', message: 'A column this endpoint does not expose requires a value' }] });
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toMatch(/WarehouseName/i);
  });
});
