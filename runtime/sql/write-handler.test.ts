/**
 * Reading a write's OUTPUT row when the database answers the column names in another case
 * (Babelfish lower-cases `OUTPUT INSERTED.[WarehouseId]` to `warehouseid`). The executed path on
 * Babelfish is test/sql/mssql-write.test.ts; this one pins the mapping without a server: the
 * driver below answers what Babelfish answered there.
 */
import { describe, expect, it } from 'vitest';
import { endpoint } from '../../test/sql/fixtures.js';
import { mssqlCompiler } from './compile/dialects/mssql.js';
import { rowValue, type Row, type SqlDriver } from './drivers/driver.js';
import { handleSqlWrite, type SqlWriteRequest } from './write-handler.js';

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
