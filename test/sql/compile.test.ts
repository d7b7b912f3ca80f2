import { describe, it, expect } from 'vitest';
import { mssqlCompiler } from '../../runtime/sql/compile/dialects/mssql.js';
import { postgresCompiler } from '../../runtime/sql/compile/dialects/postgres.js';
import { SQL_CASES } from './cases.js';
import { compileCase, showParams } from './compile-case.js';

const DIALECTS = [['postgres', postgresCompiler], ['mssql', mssqlCompiler]] as const;

describe.each(DIALECTS)('%s SQL per feature', (dialect, compiler) => {
  it.each(SQL_CASES)('%s', (_name, c) => {
    const { list, count } = compileCase(c, compiler);
    expect({ sql: list.sql, params: showParams(list.params) }).toEqual(c.want[dialect]);
    if (c.count) expect(count?.sql).toBe(c.count[dialect]);
  });
});
