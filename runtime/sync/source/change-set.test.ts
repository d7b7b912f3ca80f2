import { describe, expect, it } from 'vitest';
import { parseChangeSet } from './change-set.js';
import { procedureSql } from './procedure.js';

describe('parseChangeSet', () => {
  it('reads the contract and orders records by $version (stable)', () => {
    const set = parseChangeSet(
      JSON.stringify({ Metadata: { Sync: { Version: 9, Type: 'Diff', ReasonCode: 0 } }, Data: [{ $operation: 'U', $version: 9, id: 1 }, { $operation: 'I', $version: 7, id: 2 }, { $operation: 'D', $version: 9, id: 3 }] }),
      'p',
    );
    expect(set).toEqual({ version: 9, type: 'Diff', reasonCode: 0, records: [{ $operation: 'I', $version: 7, id: 2 }, { $operation: 'U', $version: 9, id: 1 }, { $operation: 'D', $version: 9, id: 3 }] });
  });
  it.each([
    ['not JSON', 'nope', 'p did not return JSON'],
    ['no version', { Metadata: {}, Data: [] }, 'p returned no Metadata.Sync.Version'],
    ['Data not an array', { Metadata: { Sync: { Version: 1 } }, Data: {} }, 'p returned Data that is not an array'],
    ['bad operation', { Metadata: { Sync: { Version: 1 } }, Data: [{ $operation: 'X' }] }, 'p: Data[0].$operation must be I, U or D'],
  ])('refuses %s', (_name, value, message) => {
    expect(() => parseChangeSet(value, 'p')).toThrow(message);
  });
});

describe('procedureSql', () => {
  it.each([
    ['postgres', 'sync.ProductChanges', 'SELECT "sync"."ProductChanges"($1::jsonb)::text AS "result"'],
    ['embedded', 'changes', 'SELECT "changes"($1::jsonb)::text AS "result"'],
    ['mssql', 'dbo.GetChanges', 'EXEC [dbo].[GetChanges] @Json = @p1'],
  ] as const)('%s %s', (provider, name, want) => {
    expect(procedureSql(provider, name)).toBe(want);
  });
  it('refuses a name that is not an identifier', () => {
    expect(() => procedureSql('postgres', 'x; DROP TABLE y')).toThrow("invalid procedure name 'x; DROP TABLE y'");
  });
});

describe('callProcedure (driver boundary)', () => {
  it('SQL Server: joins the FOR JSON chunks of every row and passes the JSON argument as nvarchar(max)', async () => {
    const { callProcedure } = await import('./procedure.js');
    const doc = JSON.stringify({ Metadata: { Sync: { Version: 12, Type: 'Diff', ReasonCode: 0 } }, Data: [{ $operation: 'U', $version: 12, ProductId: 3 }] });
    const column = 'JSON_F52E2B61-18A1-11d1-B105-00805F49916B';
    const calls: unknown[] = [];
    const driver = {
      provider: 'mssql' as const,
      async query(sql: string, params: readonly unknown[]) {
        calls.push([sql, params]);
        return [{ [column]: doc.slice(0, 20) }, { [column]: doc.slice(20, 50) }, { [column]: doc.slice(50) }];
      },
      async close() {},
    };
    const set = await callProcedure(driver, 'mssql', 'sync.ProductChanges', 11);
    expect(calls).toEqual([['EXEC [sync].[ProductChanges] @Json = @p1', [{ type: 'string', value: '{"fromVersion":11,"mode":"sync"}', sqlType: 'nvarchar(max)' }]]]);
    expect(set).toEqual({ version: 12, type: 'Diff', reasonCode: 0, records: [{ $operation: 'U', $version: 12, ProductId: 3 }] });
  });
});
