/**
 * A database refusal that concerns a column the endpoint does not expose, through the running
 * server on a real PostgreSQL (`pg`) and the embedded PGlite database (`demo`), and SQL Server
 * (`ms`) with MSSQL_URL: the answer never names that column or the constraint (schema internals the
 * endpoint hides); it says what was refused without them. Inventory/WarehouseCodes (added here) writes
 * inventory.Warehouses with only WarehouseId, Code and City allowed.
 */
import { cp, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { ROOT } from './fixtures.js';
import { startSqlTestServer, type SqlTestServer } from './http-server.js';

const MSSQL_URL = process.env['MSSQL_URL'];
const ENVIRONMENTS = ['pg', 'demo', ...(MSSQL_URL ? ['ms' as const] : [])] as const;
const CODES = {
  DatabaseSchema: 'inventory',
  DatabaseObjectName: 'Warehouses',
  PrimaryKey: 'WarehouseId',
  AllowedColumns: ['WarehouseId', 'Code', 'City'],
  AllowedMethods: ['GET', 'POST', 'PATCH', 'DELETE'],
  WriteMode: 'Table',
};

let pg: TestPostgres;
let server: SqlTestServer;
let root: string;

beforeAll(async () => {
  pg = await startPostgres();
  root = await mkdtemp(path.join(tmpdir(), 'wharf-refusal-names-'));
  for (const dir of ['endpoints', 'schemas']) await cp(path.join(ROOT, dir), path.join(root, dir), { recursive: true });
  await mkdir(path.join(root, 'endpoints/SQL/Inventory/WarehouseCodes'), { recursive: true });
  await writeFile(path.join(root, 'endpoints/SQL/Inventory/WarehouseCodes/entity.json'), JSON.stringify(CODES, null, 2));
  server = await startSqlTestServer(pg.url, pg.port + 1, { logger: false, root, environments: [...ENVIRONMENTS], ...(MSSQL_URL ? { mssqlUrl: MSSQL_URL } : {}) });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await pg?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

function call(method: string, url: string, payload?: unknown) {
  return server.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: server.authorization, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}

describe.each(ENVIRONMENTS)('refusals over hidden columns on %s', (env) => {
  it('NOT NULL of a column the endpoint does not expose (WarehouseName): 422 without its name', async () => {
    const res = await call('POST', `/api/${env}/Inventory/WarehouseCodes`, { Code: 'HC-001', City: 'Hidden' });
    expect(res.json()).toEqual({ success: false, error: 'Validation failed', details: [{ field: 'body', message: 'A column this endpoint does not expose requires a value' }] });
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toMatch(/WarehouseName/i);
  });
});
