/**
 * Batch writes and keyset paging on SQL Server, only when MSSQL_URL points to a database prepared
 * with runtime/sql/demo/mssql.sql (no SQL Server on this project's CI machine): the same
 * handleSqlBatch path as batch-http.test.ts (one INSERT ... OUTPUT INSERTED ... VALUES (...), (...);
 * all or nothing), and a keyset walk over a column with NULLs (SQL Server sorts them first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mssqlCompiler } from '../../runtime/sql/compile/dialects/mssql.js';
import { keysetPlan, takeKeysetValues } from '../../runtime/sql/keyset.js';
import type { KeysetValue } from '../../runtime/sql/keyset-token.js';
import type { OrderColumn, ReadPlan } from '../../runtime/sql/plan.js';
import { handleSqlWrite } from '../../runtime/sql/write-handler.js';
import { MSSQL_SKIP_REASON, MSSQL_URL, openMssql } from './databases.js';
import { endpoint } from './fixtures.js';

const driver = openMssql();
const W = endpoint('sql:Inventory/Warehouses');
const stamp = String(Date.now() % 1000).padStart(3, '0');
const table = `keyset_${process.pid}_${Date.now()}`;

describe.skipIf(!MSSQL_URL)('batch writes and keyset paging on SQL Server (MSSQL_URL)', () => {
  const deps = () => ({ driver: driver!, compiler: mssqlCompiler, maxBatchRows: 100 });
  const count = async () => Number((await driver!.query('SELECT COUNT(*) AS n FROM [inventory].[Warehouses]', []))[0]?.['n']);

  beforeAll(async () => {
    await driver!.query(`CREATE TABLE dbo.[${table}] ([Id] int PRIMARY KEY, [Score] int NULL)`, []);
    await driver!.query(`INSERT INTO dbo.[${table}] SELECT n, CASE WHEN n % 4 = 0 THEN NULL ELSE n % 5 END FROM (SELECT TOP 37 ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS n FROM sys.all_objects) AS s`, []);
  });
  afterAll(async () => {
    await driver?.query(`DROP TABLE IF EXISTS dbo.[${table}]`, []);
    await driver?.close();
  });

  it('a batch POST stores every row in order; a failing row stores none; a batch DELETE removes all', async () => {
    const before = await count();
    const created = await handleSqlWrite(W, { method: 'POST', body: [{ Code: `QA-${stamp}`, Name: 'a' }, { Code: `QB-${stamp}`, Name: 'b', City: 'Ede' }], pathId: null, query: {}, endpointPath: '/x' }, deps());
    expect(created.status).toBe(201);
    expect((created.body.result as { Code: string; City: string | null; Notes: string }[]).map((r) => [r.Code, r.City, r.Notes])).toEqual([[`QA-${stamp}`, null, '***'], [`QB-${stamp}`, 'Ede', '***']]);
    await expect(handleSqlWrite(W, { method: 'POST', body: [{ Code: `QC-${stamp}`, Name: 'c' }, { Code: 'NL-001', Name: 'dup' }], pathId: null, query: {}, endpointPath: '/x' }, deps()))
      .rejects.toMatchObject({ status: 409 });
    expect(await count()).toBe(before + 2);
    const ids = created.body.id as number[];
    await expect(handleSqlWrite(W, { method: 'DELETE', body: [...ids, 999999], pathId: null, query: {}, endpointPath: '/x' }, deps())).rejects.toMatchObject({ status: 404 });
    expect(await count()).toBe(before + 2);
    const deleted = await handleSqlWrite(W, { method: 'DELETE', body: ids, pathId: null, query: {}, endpointPath: '/x' }, deps());
    expect(deleted.status).toBe(200);
    // the deleted keys, also where Babelfish answers the OUTPUT column lower-cased
    expect([...(deleted.body.id as number[])].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(await count()).toBe(before);
  });

  it.each([
    ['Score asc', [{ column: 'Score', direction: 'asc' }, { column: 'Id', direction: 'asc' }]],
    ['Score desc, Id asc', [{ column: 'Score', direction: 'desc' }, { column: 'Id', direction: 'asc' }]],
  ] as const)('keyset walk %s: every row once, in the unpaged order', async (_name, order) => {
    const plan = (fetch: number | null): ReadPlan => ({
      source: { schema: 'dbo', object: table }, args: null, select: [{ column: 'Id', name: 'Id' }], where: null,
      orderBy: [...order] as OrderColumn[], page: fetch === null ? null : { skip: 0, fetch }, expand: [],
    });
    const all = mssqlCompiler.compileRead({ ...plan(null), page: { skip: 0, fetch: 1000 } });
    const everything = (await driver!.query(all.sql, all.params)).map((r) => r['Id']);
    const seen: unknown[] = [];
    let values: KeysetValue[] | null = null;
    for (let page = 0; page < 20; page++) {
      const q = mssqlCompiler.compileRead(keysetPlan(plan(5), 'Id', values));
      const rows = (await driver!.query(q.sql, q.params)).slice(0, 5);
      if (rows.length === 0) break;
      values = takeKeysetValues(rows, order.length);
      seen.push(...rows.map((r) => r['Id']));
    }
    expect(seen).toEqual(everything);
  });
});

if (!MSSQL_URL) describe('SQL Server batch writes and keyset paging', () => {
  it.skip(MSSQL_SKIP_REASON, () => undefined);
});
