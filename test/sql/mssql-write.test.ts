/**
 * SQL writes and the webhook insert on SQL Server, only when MSSQL_URL points to a database
 * prepared with runtime/sql/demo/mssql.sql (no SQL Server on this project's CI machine). The same
 * handleSqlWrite as the HTTP tests: Table mode on inventory.Warehouses, the procedure
 * sales.SaveOrder, constraint answers, and the portable webhook INSERT ... OUTPUT.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../../runtime/contract/model.js';
import { mssqlCompiler } from '../../runtime/sql/compile/dialects/mssql.js';
import { rowValue } from '../../runtime/sql/drivers/driver.js';
import { handleSqlWrite, type SqlWriteRequest } from '../../runtime/sql/write-handler.js';
import { webhookInsert } from '../../runtime/webhook/webhook-handler.js';
import { MSSQL_SKIP_REASON, MSSQL_URL, openMssql } from './databases.js';
import { endpoint } from './fixtures.js';

const driver = openMssql();
afterAll(async () => {
  await driver?.close();
});

const W = endpoint('sql:Inventory/Warehouses');
const O = endpoint('sql:Sales/Orders');
const req = (method: SqlWriteRequest['method'], body: unknown, pathId: string | null = null): SqlWriteRequest =>
  ({ method, body, pathId, query: {}, endpointPath: '/api/x' });
const code = `ZZ-${String(Date.now() % 1000).padStart(3, '0')}`;

describe.skipIf(!MSSQL_URL)('writes on SQL Server (MSSQL_URL)', () => {
  const deps = () => ({ driver: driver!, compiler: mssqlCompiler });
  it('Table mode: insert, patch, conflict, delete', async () => {
    const created = await handleSqlWrite(W, req('POST', { Code: code, Name: 'MS' }), deps());
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const patched = await handleSqlWrite(W, req('PATCH', { City: 'Utrecht' }, id), deps());
    expect(patched.body.result).toMatchObject({ City: 'Utrecht', Notes: '***' });
    await expect(handleSqlWrite(W, req('POST', { Code: 'NL-001', Name: 'dup' }), deps())).rejects.toMatchObject({ status: 409, message: 'A record with this Code already exists' });
    await expect(handleSqlWrite(W, req('POST', { Code: 'FR-009', Name: 'x', Capacity: -1 }), deps())).rejects.toMatchObject({ status: 422 });
    expect((await handleSqlWrite(W, req('DELETE', undefined, id), deps())).status).toBe(200);
    await expect(handleSqlWrite(W, req('DELETE', undefined, id), deps())).rejects.toMatchObject({ status: 404 });
  });

  it('procedure: INSERT returns the key; THROW 50000 is a 400 with its message', async () => {
    const created = await handleSqlWrite(O, req('POST', { CustomerId: 5, OrderDate: '2025-02-03', Total: 1.5 }), deps());
    expect(created.body.result).toEqual({ OrderId: created.body.id });
    await expect(handleSqlWrite(O, req('PATCH', { Status: 'Paid' }, '999999'), deps())).rejects.toMatchObject({ status: 400, message: 'Order 999999 does not exist' });
  });

  it('webhook insert with OUTPUT INSERTED', async () => {
    const hook = { schema: 'integrations', objectName: 'WebhookEvents' } as WebhookEndpoint;
    const q = mssqlCompiler.compileInsert(webhookInsert(hook, 'payment-failed', '{"a":1}', new Date()));
    const rows = await driver!.query(q.sql, q.params);
    // read as the webhook handler reads it (Babelfish answers the OUTPUT column as `id`)
    expect(typeof rowValue(rows[0], 'Id')).toBe('number');
  });
});

if (!MSSQL_URL) describe('SQL Server writes', () => {
  it.skip(MSSQL_SKIP_REASON, () => undefined);
});
