import { describe, it, expect } from 'vitest';
import type { FilterExpr } from '../odata/ast.js';
import type { ReadPlan } from '../plan.js';
import { mssqlCompiler } from './dialects/mssql.js';
import { postgresCompiler } from './dialects/postgres.js';

const base: ReadPlan = {
  source: { schema: 'dbo', object: 'Things' },
  args: null,
  select: [{ column: 'Id', name: 'Id' }],
  where: null,
  orderBy: [],
  page: null,
  expand: [],
};

const show = (params: readonly { type: string; value: unknown }[]): string[] => params.map((p) => `${p.type}:${String(p.value)}`);

describe('identifier quoting comes only from the model and is escaped', () => {
  it.each([
    ['postgres doubles "', postgresCompiler, 'SELECT "t"."we""ird" AS "a]b" FROM "sch""ema"."Ob]j" AS "t"'],
    ['mssql doubles ]', mssqlCompiler, 'SELECT [t].[we"ird] AS [a]]b] FROM [sch"ema].[Ob]]j] AS [t]'],
  ] as const)('%s', (_n, compiler, want) => {
    const plan: ReadPlan = { ...base, source: { schema: 'sch"ema', object: 'Ob]j' }, select: [{ column: 'we"ird', name: 'a]b' }] };
    expect(compiler.compileRead(plan).sql).toBe(want);
  });
});

const literalCases: Array<[string, { filter: FilterExpr; postgres: string; mssql: string; params: string[] }]> = [
  ['boolean', { filter: { kind: 'compare', op: 'eq', left: { kind: 'member', name: 'A', column: 'Active' }, right: { kind: 'literal', type: 'boolean', value: true } },
    postgres: '"Active" = $1', mssql: '[Active] = @p1', params: ['boolean:true'] }],
  ['guid', { filter: { kind: 'compare', op: 'ne', left: { kind: 'member', name: 'G', column: 'G' }, right: { kind: 'literal', type: 'guid', value: '0f8fad5b-d9cb-469f-a165-70867728950e' } },
    postgres: '"G" <> $1', mssql: '[G] <> @p1', params: ['guid:0f8fad5b-d9cb-469f-a165-70867728950e'] }],
  ['bigint', { filter: { kind: 'compare', op: 'ge', left: { kind: 'member', name: 'N', column: 'N' }, right: { kind: 'literal', type: 'int', value: 3_000_000_000 } },
    postgres: '"N" >= CAST($1 AS bigint)', mssql: '[N] >= @p1', params: ['bigint:3000000000'] }],
  ['null on the left', { filter: { kind: 'compare', op: 'eq', left: { kind: 'literal', type: 'null', value: null }, right: { kind: 'member', name: 'N', column: 'N' } },
    postgres: '"N" IS NULL', mssql: '[N] IS NULL', params: [] }],
  ['LIKE escape', { filter: { kind: 'match', fn: 'endswith', operand: { kind: 'member', name: 'S', column: 'S' }, pattern: "a%b_c[d]\\'" },
    postgres: `"S" LIKE $1 ESCAPE '\\'`, mssql: `[S] LIKE @p1 ESCAPE '\\'`, params: ["string:%a\\%b\\_c[d]\\\\'"] }],
];

describe('literals become typed parameters', () => {
  it.each(literalCases)('%s', (_n, c) => {
    const pg = postgresCompiler.compileRead({ ...base, where: c.filter });
    const ms = mssqlCompiler.compileRead({ ...base, where: c.filter });
    expect(pg.sql).toBe(`SELECT "t"."Id" FROM "dbo"."Things" AS "t" WHERE ${c.postgres}`);
    expect(ms.sql).toBe(`SELECT [t].[Id] FROM [dbo].[Things] AS [t] WHERE ${c.mssql}`);
    expect(show(pg.params)).toEqual(c.params.map((p) => (p.startsWith('string:%a') ? p : p)));
    expect(show(ms.params)).toEqual(c.params.map((p) => (p.startsWith('string:%a') ? 'string:%a\\%b\\_c\\[d]\\\\\'' : p)));
  });
});

describe('mssql paging always has an ORDER BY', () => {
  it('uses (SELECT NULL) without key or order', () => {
    expect(mssqlCompiler.compileRead({ ...base, page: { skip: 5, fetch: 11 } }).sql).toBe(
      'SELECT [t].[Id] FROM [dbo].[Things] AS [t] ORDER BY (SELECT NULL) OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
    );
  });
  it('has no ORDER BY or paging for an unpaged read by key', () => {
    expect(mssqlCompiler.compileRead(base).sql).toBe('SELECT [t].[Id] FROM [dbo].[Things] AS [t]');
  });
});
