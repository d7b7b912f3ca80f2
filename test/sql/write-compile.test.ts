/**
 * The write statements per dialect, as text: the real validation (write-body.ts) and plans
 * (write-plan.ts) of the sample endpoints Inventory/Warehouses (Table mode) and Sales/Orders
 * (procedure), compiled by the same compilers as reads. Values only ever appear as parameters;
 * identifiers only from AllowedColumns. write-http.test.ts runs them on real databases.
 */
import { describe, expect, it } from 'vitest';
import type { SqlCompiler } from '../../runtime/sql/compile/compiler.js';
import { mssqlCompiler } from '../../runtime/sql/compile/dialects/mssql.js';
import { postgresCompiler } from '../../runtime/sql/compile/dialects/postgres.js';
import { validateWrite, type WriteInput } from '../../runtime/sql/write-body.js';
import { planDelete, planInsert, planProcedure, planUpdate } from '../../runtime/sql/write-plan.js';
import { showParams } from './compile-case.js';
import { endpoint } from './fixtures.js';

const W = endpoint('sql:Inventory/Warehouses');
const O = endpoint('sql:Sales/Orders');
const COLS_PG = '"WarehouseId", "Code", "WarehouseName", "City", "Capacity", "ContactCustomerId", "IsActive", "Notes"';
const COLS_MS = (p: string) => ['WarehouseId', 'Code', 'WarehouseName', 'City', 'Capacity', 'ContactCustomerId', 'IsActive', 'Notes'].map((c) => `${p}.[${c}]`).join(', ');

interface Case {
  readonly input: WriteInput;
  readonly compile: (c: SqlCompiler, input: WriteInput) => { sql: string; params: readonly { type: string; value: unknown }[] };
  readonly postgres: { sql: string; params: string[] };
  readonly mssql: { sql: string; params: string[] };
}

const table = (c: SqlCompiler, input: WriteInput) => {
  const valid = validateWrite(W, input);
  switch (input.method) {
    case 'POST': return c.compileInsert(planInsert(W, valid));
    case 'DELETE': return c.compileDelete(planDelete(W, valid));
    default: return c.compileUpdate(planUpdate(W, input.method, valid)!);
  }
};
const procedure = (c: SqlCompiler, input: WriteInput) => c.compileProcedure(planProcedure(O, input.method, validateWrite(O, input), false));

const CASES: ReadonlyArray<readonly [string, Case]> = [
  ['INSERT: aliases become columns, values parameters', {
    input: { method: 'POST', body: { Code: 'NL-002', Name: "x'; --", Capacity: 3, IsActive: true }, pathId: null, query: {} },
    compile: table,
    postgres: { sql: `INSERT INTO "inventory"."Warehouses" ("Code", "WarehouseName", "Capacity", "IsActive") VALUES ($1, $2, $3, $4) RETURNING ${COLS_PG}`,
      params: ['string:NL-002', "string:x'; --", 'int:3', 'boolean:true'] },
    mssql: { sql: `INSERT INTO [inventory].[Warehouses] ([Code], [WarehouseName], [Capacity], [IsActive]) OUTPUT ${COLS_MS('INSERTED')} VALUES (@p1, @p2, @p3, @p4)`,
      params: ['string:NL-002', "string:x'; --", 'int:3', 'boolean:true'] },
  }],
  ['UPDATE full (PUT): every column but the key, absent ones NULL', {
    input: { method: 'PUT', body: { Code: 'NL-002', Name: 'Venlo' }, pathId: '4', query: {} },
    compile: table,
    postgres: { sql: `UPDATE "inventory"."Warehouses" SET "Code" = $1, "WarehouseName" = $2, "City" = $3, "Capacity" = $4, "ContactCustomerId" = $5, "IsActive" = $6, "Notes" = $7 WHERE "WarehouseId" = $8 RETURNING ${COLS_PG}`,
      params: ['string:NL-002', 'string:Venlo', 'string:null', 'string:null', 'string:null', 'string:null', 'string:null', 'int:4'] },
    mssql: { sql: `UPDATE [inventory].[Warehouses] SET [Code] = @p1, [WarehouseName] = @p2, [City] = @p3, [Capacity] = @p4, [ContactCustomerId] = @p5, [IsActive] = @p6, [Notes] = @p7 OUTPUT ${COLS_MS('INSERTED')} WHERE [WarehouseId] = @p8`,
      params: ['string:NL-002', 'string:Venlo', 'string:null', 'string:null', 'string:null', 'string:null', 'string:null', 'int:4'] },
  }],
  ['UPDATE partial (PATCH): the given columns, the key from the body', {
    input: { method: 'PATCH', body: { WarehouseId: 4, City: 'Venlo', Capacity: 2.5 }, pathId: null, query: {} },
    compile: table,
    postgres: { sql: `UPDATE "inventory"."Warehouses" SET "City" = $1, "Capacity" = $2 WHERE "WarehouseId" = $3 RETURNING ${COLS_PG}`,
      params: ['string:Venlo', 'decimal:2.5', 'int:4'] },
    mssql: { sql: `UPDATE [inventory].[Warehouses] SET [City] = @p1, [Capacity] = @p2 OUTPUT ${COLS_MS('INSERTED')} WHERE [WarehouseId] = @p3`,
      params: ['string:Venlo', 'decimal:2.5', 'int:4'] },
  }],
  ['DELETE by key (?id=)', {
    input: { method: 'DELETE', body: undefined, pathId: null, query: { id: '7' } },
    compile: table,
    postgres: { sql: 'DELETE FROM "inventory"."Warehouses" WHERE "WarehouseId" = $1 RETURNING "WarehouseId"', params: ['int:7'] },
    mssql: { sql: 'DELETE FROM [inventory].[Warehouses] OUTPUT DELETED.[WarehouseId] WHERE [WarehouseId] = $1'.replace('$1', '@p1'), params: ['int:7'] },
  }],
  ['procedure: @Method, db names for aliases, JSON text for objects', {
    input: { method: 'POST', body: { CustomerId: 5, Total: 12.5, Status: { a: [1] } }, pathId: null, query: {} },
    compile: procedure,
    postgres: { sql: 'CALL "sales"."SaveOrder"("Method" => $1, "CustomerId" => $2, "TotalAmount" => $3, "Status" => $4)',
      params: ['string:INSERT', 'int:5', 'decimal:12.5', 'string:{"a":[1]}'] },
    mssql: { sql: 'EXEC [sales].[SaveOrder] @Method = @p1, @CustomerId = @p2, @TotalAmount = @p3, @Status = @p4',
      params: ['string:INSERT', 'int:5', 'decimal:12.5', 'string:{"a":[1]}'] },
  }],
  ['procedure: MERGE is PATCH; the URL key is passed', {
    input: { method: 'PATCH', body: { Status: 'Paid' }, pathId: '12', query: {} },
    compile: procedure,
    postgres: { sql: 'CALL "sales"."SaveOrder"("Method" => $1, "Status" => $2, "OrderId" => $3)', params: ['string:PATCH', 'string:Paid', 'int:12'] },
    mssql: { sql: 'EXEC [sales].[SaveOrder] @Method = @p1, @Status = @p2, @OrderId = @p3', params: ['string:PATCH', 'string:Paid', 'int:12'] },
  }],
  ['procedure: DELETE passes only the key', {
    input: { method: 'DELETE', body: undefined, pathId: '12', query: {} },
    compile: procedure,
    postgres: { sql: 'CALL "sales"."SaveOrder"("Method" => $1, "OrderId" => $2)', params: ['string:DELETE', 'int:12'] },
    mssql: { sql: 'EXEC [sales].[SaveOrder] @Method = @p1, @OrderId = @p2', params: ['string:DELETE', 'int:12'] },
  }],
];

describe.each([['postgres', postgresCompiler], ['mssql', mssqlCompiler]] as const)('%s write statements', (dialect, compiler) => {
  it.each(CASES)('%s', (_name, c) => {
    const q = c.compile(compiler, c.input);
    expect({ sql: q.sql, params: showParams(q.params as never) }).toEqual(c[dialect]);
  });
});

describe('procedure call as a PostgreSQL function', () => {
  it('selects from it', () => {
    const q = postgresCompiler.compileProcedure(planProcedure(O, 'PUT', validateWrite(O, { method: 'PUT', body: { Status: 'New' }, pathId: '3', query: {} }), true));
    expect(q.sql).toBe('SELECT * FROM "sales"."SaveOrder"("Method" => $1, "Status" => $2, "OrderId" => $3)');
  });
});
