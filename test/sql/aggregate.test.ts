/**
 * `$apply` on SQL: the expected SQL per dialect for every case of aggregate-cases.ts (no
 * database), then each case executed on PGlite and a real PostgreSQL (and SQL Server with
 * MSSQL_URL): the rows must equal the in-memory aggregation of the whole table, so the SQL and
 * aggregate-rows.ts check each other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlCompiler } from '../../runtime/sql/compile/compiler.js';
import { mssqlCompiler } from '../../runtime/sql/compile/dialects/mssql.js';
import { postgresCompiler } from '../../runtime/sql/compile/dialects/postgres.js';
import type { Row, SqlDriver } from '../../runtime/sql/drivers/driver.js';
import { compileAggregateRead } from '../../runtime/sql/compile-read.js';
import { aggregateRows } from '../../runtime/sql/odata/aggregate-rows.js';
import { orderRows } from '../../runtime/sql/odata/order-rows.js';
import { AGGREGATE_CASES, type AggregateCase } from './aggregate-cases.js';
import { showParams } from './compile-case.js';
import { MSSQL_SKIP_REASON, openMssql, openTestDatabases, type TestDatabases } from './databases.js';
import { endpoint } from './fixtures.js';
import { keepBounds } from '../../runtime/sql/column-bounds.js';

const P = 'sql:Inventory/Products';

function compile(c: AggregateCase, compiler: SqlCompiler) {
  const { request, top, compiled } = compileAggregateRead(endpoint(c.endpoint), c.options, compiler, { resolveEndpoint: () => undefined });
  return { request, top, q: compiled };
}

describe.each([['postgres', postgresCompiler], ['mssql', mssqlCompiler]] as const)('%s $apply SQL', (dialect, compiler) => {
  it.each(AGGREGATE_CASES)('%s', (_name, c) => {
    const { q } = compile(c, compiler);
    expect({ sql: q.sql, params: showParams(q.params) }).toEqual(c.want[dialect]);
  });
});

describe('$apply sum of an integer column (the catalogue says so)', () => {
  const kinds = new Map([['UnitsInStock', 'number' as const], ['UnitPrice', 'number' as const]]);
  keepBounds(kinds, [{ name: 'UnitsInStock', type: 'integer', nullable: false }, { name: 'UnitPrice', type: 'numeric', precision: 10, scale: 2, nullable: false }]);
  const sums = (compiler: SqlCompiler) => compileAggregateRead(endpoint(P), { apply: 'aggregate(Stock with sum as Units,Price with sum as Value)' }, compiler, { resolveEndpoint: () => undefined, columnKinds: kinds }).compiled.sql;
  it('SQL Server sums it as bigint (its SUM of an int is an int, 8115 past 2^31); a decimal column and PostgreSQL as they are', () => {
    expect(sums(mssqlCompiler)).toBe('SELECT SUM(CAST([t].[UnitsInStock] AS bigint)) AS [Units], SUM([t].[UnitPrice]) AS [Value] FROM [inventory].[Products] AS [t]');
    expect(sums(postgresCompiler)).toBe('SELECT SUM("t"."UnitsInStock") AS "Units", SUM("t"."UnitPrice") AS "Value" FROM "inventory"."Products" AS "t"');
  });
});

/** Numbers as numbers (SQL Server's float average and PostgreSQL's numeric differ in the last digits). */
function rounded(rows: readonly Row[]): Row[] {
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v])));
}

async function expected(driver: SqlDriver, c: AggregateCase, compiler: SqlCompiler): Promise<Row[]> {
  const e = endpoint(c.endpoint);
  const all = await driver.query(compiler.compileRead({ source: { schema: e.schema, object: e.objectName }, args: null, select: e.columns.map((col) => ({ column: col.db, name: col.name })), where: null, orderBy: [], page: null, expand: [] }).sql, []);
  const { request, top } = compile(c, compiler);
  const grouped = aggregateRows(all, request.apply);
  const order = [...request.orderby, ...request.apply.groupBy.filter((g) => !request.orderby.some((o) => o.member.column === g.name)).map((g) => ({ member: { kind: 'member' as const, name: g.name, column: g.name }, direction: 'asc' as const }))];
  const sorted = orderRows(grouped, order);
  return request.apply.groupBy.length === 0 ? sorted : sorted.slice(request.skip, request.skip + top);
}

async function actual(driver: SqlDriver, c: AggregateCase, compiler: SqlCompiler): Promise<Row[]> {
  const { q, top } = compile(c, compiler);
  return (await driver.query(q.sql, q.params)).slice(0, top);
}

describe('$apply executed', () => {
  let dbs: TestDatabases;
  beforeAll(async () => {
    dbs = await openTestDatabases();
  }, 120_000);
  afterAll(async () => {
    await dbs?.close();
  });

  describe.each(['pglite', 'postgres'] as const)('on %s', (which) => {
    it.each(AGGREGATE_CASES)('%s', async (_name, c) => {
      const rows = await actual(dbs[which], c, postgresCompiler);
      expect(rows.length).toBeGreaterThanOrEqual(c.minRows);
      expect(rounded(rows)).toEqual(rounded(await expected(dbs[which], c, postgresCompiler)));
    });
  });
});

describe.skipIf(!openMssql)('$apply on SQL Server', () => {
  const mssql = openMssql();
  afterAll(async () => {
    await mssql?.close();
  });
  it.skipIf(mssql === null)(mssql === null ? MSSQL_SKIP_REASON : 'every case equals the in-memory aggregation', async () => {
    for (const [, c] of AGGREGATE_CASES) {
      const rows = await actual(mssql!, c, mssqlCompiler);
      expect(rounded(rows)).toEqual(rounded(await expected(mssql!, c, mssqlCompiler)));
    }
  });
});
