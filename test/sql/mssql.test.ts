/**
 * The same feature table on SQL Server, only when MSSQL_URL points to a database holding the demo
 * schema (not available on this project's CI machine: no SQL Server package or container).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mssqlCompiler } from '../../runtime/sql/compile/dialects/mssql.js';
import { SQL_CASES } from './cases.js';
import { compileCase } from './compile-case.js';
import { MSSQL_SKIP_REASON, MSSQL_URL, openMssql } from './databases.js';

const driver = openMssql();
afterAll(async () => {
  await driver?.close();
});

describe.skipIf(!MSSQL_URL)('on SQL Server (MSSQL_URL)', () => {
  it.each(SQL_CASES)('%s', async (_name, c) => {
    const { list, input } = compileCase(c, mssqlCompiler);
    const rows = await driver!.query(list.sql, list.params);
    expect(rows.length).toBeGreaterThanOrEqual(Math.min(c.minRows, input.query.top ?? 100));
  });
});

if (!MSSQL_URL) describe('SQL Server', () => {
  it.skip(MSSQL_SKIP_REASON, () => undefined);
});
