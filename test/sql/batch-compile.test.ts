/**
 * Batch write statements per dialect, as text (the expected-SQL table of batch writes): the real
 * validation (batch-body.ts) and plans (batch-plan.ts) of Inventory/Warehouses, compiled by the
 * same compilers as reads. One statement per batch; values only as parameters. batch-http.test.ts
 * runs them on real databases.
 */
import { describe, expect, it } from 'vitest';
import type { SqlCompiler } from '../../runtime/sql/compile/compiler.js';
import { mssqlCompiler } from '../../runtime/sql/compile/dialects/mssql.js';
import { postgresCompiler } from '../../runtime/sql/compile/dialects/postgres.js';
import { validateBatchDelete, validateBatchInsert } from '../../runtime/sql/batch-body.js';
import { batchInsertParams, planBatchDelete, planBatchInsert } from '../../runtime/sql/batch-plan.js';
import { batchLimit } from '../../runtime/sql/batch-handler.js';
import { showParams } from './compile-case.js';
import { endpoint } from './fixtures.js';

const W = endpoint('sql:Inventory/Warehouses');
const COLS_PG = '"WarehouseId", "Code", "WarehouseName", "City", "Capacity", "ContactCustomerId", "IsActive", "Notes"';
const COLS_MS = ['WarehouseId', 'Code', 'WarehouseName', 'City', 'Capacity', 'ContactCustomerId', 'IsActive', 'Notes'].map((c) => `INSERTED.[${c}]`).join(', ');

interface Case {
  readonly compile: (c: SqlCompiler) => { sql: string; params: readonly unknown[] };
  readonly postgres: { sql: string; params: string[] };
  readonly mssql: { sql: string; params: string[] };
}

const insert = (rows: unknown[]) => (c: SqlCompiler) => c.compileBatchInsert(planBatchInsert(W, validateBatchInsert(W, rows, 1000)));
const remove = (keys: unknown[]) => (c: SqlCompiler) => c.compileBatchDelete(planBatchDelete(W, validateBatchDelete(keys, 1000)));

const CASES: ReadonlyArray<readonly [string, Case]> = [
  ['multi-row INSERT: one statement, aliases become columns, a column a row leaves out is DEFAULT', {
    compile: insert([{ Code: 'NL-002', Name: 'Venlo' }, { Code: 'NL-003', Name: "x'; --", City: 'Ede' }]),
    postgres: { sql: `INSERT INTO "inventory"."Warehouses" ("Code", "WarehouseName", "City") VALUES ($1, $2, DEFAULT), ($3, $4, $5) RETURNING ${COLS_PG}`,
      params: ['string:NL-002', 'string:Venlo', 'string:NL-003', "string:x'; --", 'string:Ede'] },
    mssql: { sql: `INSERT INTO [inventory].[Warehouses] ([Code], [WarehouseName], [City]) OUTPUT ${COLS_MS} VALUES (@p1, @p2, DEFAULT), (@p3, @p4, @p5)`,
      params: ['string:NL-002', 'string:Venlo', 'string:NL-003', "string:x'; --", 'string:Ede'] },
  }],
  ['DELETE of several keys: all or none (the count locks the rows), each key one parameter (duplicates dropped)', {
    compile: remove([4, 5, 4]),
    postgres: { sql: 'DELETE FROM "inventory"."Warehouses" WHERE "WarehouseId" IN ($1, $2) AND (SELECT COUNT(*) FROM (SELECT 1 FROM "inventory"."Warehouses" WHERE "WarehouseId" IN ($1, $2) ORDER BY "WarehouseId" FOR UPDATE) AS "locked") = $3 RETURNING "WarehouseId"',
      params: ['int:4', 'int:5', 'int:2'] },
    mssql: { sql: 'DELETE FROM [inventory].[Warehouses] OUTPUT DELETED.[WarehouseId] WHERE [WarehouseId] IN (@p1, @p2) AND (SELECT COUNT(*) FROM [inventory].[Warehouses] WITH (UPDLOCK) WHERE [WarehouseId] IN (@p1, @p2)) = @p3',
      params: ['int:4', 'int:5', 'int:2'] },
  }],
];

describe.each([['postgres', postgresCompiler], ['mssql', mssqlCompiler]] as const)('%s batch statements', (dialect, compiler) => {
  it.each(CASES)('%s', (_name, c) => {
    const q = c.compile(compiler);
    expect({ sql: q.sql, params: showParams(q.params as never) }).toEqual(c[dialect]);
  });
});

describe('batch validation', () => {
  it('names the row index and the column of every failure', () => {
    expect(() => validateBatchInsert(W, [{ Code: 'NL-010', Name: 'a' }, { Code: 'x' }, { Name: 'b', Colour: 1 }], 1000)).toThrow(
      expect.objectContaining({ status: 422, details: [
        { field: '[1].Code', message: 'Row 1: Code must be a country code and three digits, like NL-001' },
        { field: '[1].Name', message: 'Row 1: Name is required' },
        { field: '[2].Colour', message: 'Row 2: Colour is not an allowed property' },
        { field: '[2].Code', message: 'Row 2: Code is required' },
      ] }),
    );
  });

  it('counts the values a statement carries (DEFAULT is none)', () => {
    expect(batchInsertParams(planBatchInsert(W, validateBatchInsert(W, [{ Code: 'NL-010', Name: 'a' }, { Code: 'NL-011', Name: 'b', City: 'c' }], 10)))).toBe(5);
  });
});

describe('batch limit', () => {
  it('is the endpoint\'s MaxBatchRows, never above the server\'s Sql:MaxBatchRows', () => {
    expect(batchLimit(W, 1000)).toBe(1000);
    expect(batchLimit({ ...W, maxBatchRows: 50 }, 1000)).toBe(50);
    expect(batchLimit({ ...W, maxBatchRows: 500 }, 100)).toBe(100);
    expect(() => validateBatchInsert(W, [{}, {}, {}], 2)).toThrow(expect.objectContaining({ status: 413, message: 'A batch may hold at most 2 rows; this one has 3' }));
  });
});
