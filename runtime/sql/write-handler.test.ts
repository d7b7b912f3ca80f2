/**
 * Reading a write's OUTPUT row when the database answers the column names in another case
 * (Babelfish lower-cases `OUTPUT INSERTED.[WarehouseId]` to `warehouseid`). The executed path on
 * Babelfish is test/sql/mssql-write.test.ts; this one pins the mapping without a server: the
 * driver below answers what Babelfish answered there. Also: the refusals under an Authorization
 * RowFilter, thrown as their registry codes before any SQL runs.
 */
import { describe, expect, it } from 'vitest';
import { endpoint } from '../../test/sql/fixtures.js';
import { mssqlCompiler } from './compile/dialects/mssql.js';
import { postgresCompiler } from './compile/dialects/postgres.js';
import { rowValue, type Row, type SqlDriver } from './drivers/driver.js';
import { handleSqlWrite, type SqlWriteRequest } from './write-handler.js';
import { columnMap } from './compile-read.js';
import { parseFilter } from './odata/filter-parser.js';

const W = endpoint('sql:Inventory/Warehouses');

function answering(rows: Row[]): SqlDriver {
  return { provider: 'mssql', query: async () => rows, close: async () => undefined };
}

const req = (method: SqlWriteRequest['method'], body: unknown, pathId: string | null = null): SqlWriteRequest =>
  ({ method, body, pathId, query: {}, endpointPath: '/api/ms/Inventory/Warehouses' });

describe('OUTPUT columns in another case', () => {
  const lowered = { warehouseid: 41, code: 'NL-041', warehousename: 'Delft', city: null, capacity: null, contactcustomerid: null, isactive: true, notes: 'x' };

  it('POST finds the key and the exposed names', async () => {
    const created = await handleSqlWrite(W, req('POST', { Code: 'NL-041', Name: 'Delft' }), { driver: answering([lowered]), compiler: mssqlCompiler });
    expect(created.body.id).toBe(41);
    expect(created.headers['location']).toBe('/api/ms/Inventory/Warehouses/41');
    expect(created.body.result).toEqual({ WarehouseId: 41, Code: 'NL-041', Name: 'Delft', City: null, Capacity: null, ContactId: null, IsActive: true, Notes: '***' });
  });

  it('DELETE finds the deleted key', async () => {
    const deleted = await handleSqlWrite(W, req('DELETE', undefined, '41'), { driver: answering([{ warehouseid: 41 }]), compiler: mssqlCompiler });
    expect(deleted.body.id).toBe(41);
  });

  it('the exact name wins over another case', () => {
    expect(rowValue({ id: 1, Id: 2 }, 'Id')).toBe(2);
    expect(rowValue({ ID: 3 }, 'Id')).toBe(3);
    expect(rowValue(undefined, 'Id')).toBeUndefined();
  });
});

describe('refusals under an Authorization RowFilter are registry errors thrown before any SQL', () => {
  const hamburg = parseFilter("City eq 'Hamburg'", columnMap(W));
  const noSql: SqlDriver = { provider: 'mssql', query: async () => { throw new Error('no SQL may run'); }, close: async () => undefined };
  const deps = { driver: noSql, compiler: mssqlCompiler, rowFilter: hamburg };

  it('a record outside the filter: SQL_OUTSIDE_ROW_FILTER naming the column', async () => {
    await expect(handleSqlWrite(W, req('POST', { Code: 'NL-009', Name: 'Elsewhere', City: 'Rotterdam' }), deps)).rejects.toMatchObject({
      code: 'SQL_OUTSIDE_ROW_FILTER', status: 422, message: 'Validation failed',
      details: [{ field: 'City', message: 'The record is outside the rows this caller may write (Authorization RowFilter)' }],
    });
  });

  it('a batch: SQL_ROW_FILTER_BATCH', async () => {
    await expect(handleSqlWrite(W, req('POST', [{ Code: 'DE-010', Name: 'Inside', City: 'Hamburg' }]), deps)).rejects.toMatchObject({
      code: 'SQL_ROW_FILTER_BATCH', status: 400, message: 'Batch writes are not available to callers under an Authorization RowFilter: write one record per request',
    });
  });
});

describe('procedure writes: a column named Method (the verb\'s parameter) is refused before any SQL runs', () => {
  const noSql: SqlDriver = { provider: 'mssql', query: async () => { throw new Error('no SQL expected'); }, close: async () => undefined };
  const orders = endpoint('sql:Sales/Orders');
  const withColumn = (db: string, primaryKey = orders.primaryKey) => ({ ...orders, primaryKey, columns: [...orders.columns, { db, name: db === 'method' ? 'Verb' : db }] });
  const refusal = (name: string) => ({ code: 'SQL_VALIDATION_FAILED', status: 422,
    details: [{ field: name, message: `${name} cannot be written through the procedure: its parameter @Method carries the verb` }] });

  it('SQL Server: any case (its parameter names ignore case), by the exposed name', async () => {
    await expect(handleSqlWrite(withColumn('method'), req('POST', { Verb: 'x' }), { driver: noSql, compiler: mssqlCompiler })).rejects.toMatchObject(refusal('Verb'));
  });

  it('PostgreSQL: exactly Method ("method" is another parameter there)', async () => {
    await expect(handleSqlWrite(withColumn('Method'), req('POST', { Method: 'x' }), { driver: noSql, compiler: postgresCompiler })).rejects.toMatchObject(refusal('Method'));
    const pg: SqlDriver = { provider: 'postgres', query: async () => [{ OrderId: 1 }], close: async () => undefined };
    const written = await handleSqlWrite(withColumn('method'), req('POST', { Verb: 'x' }), { driver: pg, compiler: postgresCompiler });
    expect(written.status).toBe(201);
  });

  it('a key column named Method given in the URL', async () => {
    await expect(handleSqlWrite(withColumn('Method', 'Method'), req('DELETE', undefined, 'GET'), { driver: noSql, compiler: mssqlCompiler })).rejects.toMatchObject(refusal('Method'));
  });
});
