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
    ['postgres', 'sync.ProductChanges', 'SELECT "sync"."ProductChanges"($1::jsonb) AS "result"'],
    ['embedded', 'changes', 'SELECT "changes"($1::jsonb) AS "result"'],
    ['mssql', 'dbo.GetChanges', 'EXEC [dbo].[GetChanges] @Json = @p1'],
  ] as const)('%s %s', (provider, name, want) => {
    expect(procedureSql(provider, name)).toBe(want);
  });
  it('refuses a name that is not an identifier', () => {
    expect(() => procedureSql('postgres', 'x; DROP TABLE y')).toThrow("invalid procedure name 'x; DROP TABLE y'");
  });
});
