/**
 * The catalogue reader's SQL per dialect and how SQL Server's catalogue rows map to a snapshot.
 * PostgreSQL and the embedded demo run for real (test/db-snapshot, test/cli/db-snapshot-cli);
 * no SQL Server runs in the suite, so its rows are given here as SQL Server returns them.
 */
import { describe, expect, it } from 'vitest';
import { readCatalogue } from './catalogue.js';
import type { Row, SqlDriver } from './drivers/driver.js';
import type { TypedValue } from './plan.js';

function recordingDriver(provider: SqlDriver['provider'], answer: (sql: string) => Row[] = () => []): SqlDriver & { sent: { sql: string; params: readonly TypedValue[] }[] } {
  const sent: { sql: string; params: readonly TypedValue[] }[] = [];
  return {
    provider,
    sent,
    query: async (sql, params) => (sent.push({ sql, params }), answer(sql)),
    close: async () => undefined,
  };
}

describe('catalogue SQL per dialect', () => {
  it.each([
    ['postgres', '$1', '@p1'],
    ['embedded', '$1', '@p1'],
    ['mssql', '@p1', '$1'],
  ] as const)('%s: schema as the parameter %s, never inlined', async (provider, placeholder, other) => {
    const driver = recordingDriver(provider);
    await readCatalogue(driver, ["x'; DROP TABLE t; --"]);
    expect(driver.sent.length).toBe(provider === 'mssql' ? 6 : 5);
    for (const { sql, params } of driver.sent) {
      expect(sql).toContain(placeholder);
      expect(sql).not.toContain(other);
      expect(sql).not.toContain('DROP TABLE');
      expect(params).toEqual([{ type: 'string', value: "x'; DROP TABLE t; --" }]);
    }
    expect(driver.sent.some((q) => q.sql.includes('COLUMNPROPERTY'))).toBe(provider === 'mssql');
  });
});

describe('SQL Server rows', () => {
  const rows = (sql: string): Row[] => {
    if (sql.includes('INFORMATION_SCHEMA.TABLES')) return [{ name: 'Orders', kind: 'BASE TABLE' }];
    if (sql.includes('FROM INFORMATION_SCHEMA.COLUMNS')) {
      return [
        { tbl: 'Orders', col_name: 'OrderId', col_type: 'int', nullable: 'NO', max_length: null, num_precision: 10, num_scale: 0, col_default: null, ordinal: 1, is_identity: 1, is_generated: 0 },
        { tbl: 'Orders', col_name: 'Note', col_type: 'nvarchar', nullable: 'YES', max_length: -1, num_precision: null, num_scale: null, col_default: null, ordinal: 2, is_identity: 0, is_generated: 0 },
        { tbl: 'Orders', col_name: 'Total', col_type: 'decimal', nullable: 'NO', max_length: null, num_precision: 12, num_scale: 2, col_default: '((0))', ordinal: 3, is_identity: 0, is_generated: 0 },
        { tbl: 'Orders', col_name: 'Label', col_type: 'nvarchar', nullable: 'YES', max_length: 60, num_precision: null, num_scale: null, col_default: null, ordinal: 4, is_identity: 0, is_generated: 1 },
      ];
    }
    if (sql.includes('TABLE_CONSTRAINTS')) return [{ tbl: 'Orders', name: 'PK_Orders', kind: 'PRIMARY KEY', col: 'OrderId', ordinal: 1, ref_schema: null, ref_table: null, ref_col: null }];
    if (sql.includes('INFORMATION_SCHEMA.ROUTINES')) {
      return [
        { name: 'OrdersSince', specific: 'OrdersSince', kind: 'FUNCTION', returns: 'TABLE' },
        { name: 'Scalar', specific: 'Scalar', kind: 'FUNCTION', returns: 'int' },
        { name: 'SaveOrder', specific: 'SaveOrder', kind: 'PROCEDURE', returns: null },
      ];
    }
    if (sql.includes('INFORMATION_SCHEMA.PARAMETERS')) {
      return [
        { specific: 'OrdersSince', name: '@Since', mode: 'IN', type: 'date', ordinal: 1, def: null },
        { specific: 'Scalar', name: '', mode: 'OUT', type: 'int', ordinal: 0, def: null },
        { specific: 'SaveOrder', name: '@OrderId', mode: 'INOUT', type: 'int', ordinal: 1, def: null },
      ];
    }
    if (sql.includes('ROUTINE_COLUMNS')) return [{ tbl: 'OrdersSince', col_name: 'OrderId', col_type: 'int', nullable: 'NO', max_length: null, num_precision: 10, num_scale: 0, col_default: null, ordinal: 1, is_identity: 0, is_generated: 0 }];
    return [];
  };

  it('maps identity, computed, nvarchar(max), a table-valued function and a procedure; leaves scalar functions out', async () => {
    const snapshot = await readCatalogue(recordingDriver('mssql', rows), ['sales']);
    expect(snapshot).toEqual({
      format: 1,
      dialect: 'mssql',
      objects: {
        'sales.Orders': {
          type: 'Table',
          primaryKey: ['OrderId'],
          columns: [
            { name: 'OrderId', type: 'int', nullable: false, identity: true },
            { name: 'Note', type: 'nvarchar', nullable: true },
            { name: 'Total', type: 'decimal', nullable: false, precision: 12, scale: 2, default: '((0))' },
            { name: 'Label', type: 'nvarchar', nullable: true, maxLength: 60, generated: true },
          ],
        },
        'sales.OrdersSince': { type: 'Function', columns: [{ name: 'OrderId', type: 'int', nullable: false }], parameters: [{ name: 'Since', type: 'date', mode: 'IN' }] },
        'sales.SaveOrder': { type: 'Procedure', columns: [], parameters: [{ name: 'OrderId', type: 'int', mode: 'INOUT' }] },
      },
    });
  });
});
