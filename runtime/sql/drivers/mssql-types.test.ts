import { describe, it, expect } from 'vitest';
import { mssqlSendable, mssqlTypeOf, mssqlValueOf, parseSqlType } from './mssql-types.js';

/** Name and precision of an mssql type, e.g. `Decimal(10,2)`. */
function show(t: { type: { declaration?: string; name?: string } | (() => unknown); length?: number; precision?: number; scale?: number }): string {
  const type = t.type as { declaration?: string };
  const extra = [t.length, t.precision, t.scale].filter((x) => x !== undefined);
  return `${type.declaration ?? '?'}${extra.length ? `(${extra.join(',')})` : ''}`;
}

describe('explicit SQL Server parameter types', () => {
  it.each([
    ['declared decimal(10,2)', { type: 'decimal', value: '400', sqlType: 'decimal(10, 2)' }, 'decimal(10,2)'],
    ['declared int', { type: 'int', value: 3, sqlType: 'int' }, 'int'],
    ['declared nvarchar(50)', { type: 'string', value: 'x', sqlType: 'nvarchar(50)' }, 'nvarchar(50)'],
    ['string literal', { type: 'string', value: 'x' }, 'nvarchar(4000)'],
    ['decimal literal keeps its scale', { type: 'decimal', value: '12.345' }, 'decimal(38,3)'],
    ['date-time literal keeps the offset type', { type: 'datetime', value: '2024-01-01T10:00:00+02:00' }, 'datetimeoffset(7)'],
    ['guid', { type: 'guid', value: '0f8fad5b-d9cb-469f-a165-70867728950e' }, 'uniqueidentifier'],
    ['boolean', { type: 'boolean', value: true }, 'bit'],
  ] as const)('%s', (_n, given, want) => {
    expect(show(mssqlTypeOf(given) as never)).toBe(want);
  });

  it('parses declared types', () => {
    expect(parseSqlType(' DECIMAL ( 10 , 2 ) ')).toEqual({ base: 'decimal', args: [10, 2] });
    expect(parseSqlType('nvarchar(max)')).toEqual({ base: 'nvarchar', args: [] });
  });

  it('converts temporal values for tedious', () => {
    expect((mssqlValueOf({ type: 'datetime', value: '2024-01-01T10:00:00+02:00' }) as Date).toISOString()).toBe('2024-01-01T08:00:00.000Z');
    expect((mssqlValueOf({ type: 'date', value: '2024-02-29' }) as Date).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(mssqlValueOf({ type: 'decimal', value: '12.50' })).toBe(12.5);
  });
});

describe('mssqlSendable: what tedious can write (a decimal scaled below 2^64)', () => {
  it.each([
    [{ type: 'decimal', value: '12.50' } as const, true],
    [{ type: 'decimal', value: '1e19' } as const, true],
    [{ type: 'decimal', value: '1e20' } as const, false],
    [{ type: 'decimal', value: '1e300' } as const, false],
    [{ type: 'decimal', value: '-1e300' } as const, false],
    [{ type: 'decimal', value: null } as const, true],
    [{ type: 'float', value: 1e300 } as const, true],
    [{ type: 'decimal', value: '1e17', sqlType: 'decimal(38,4)' } as const, false],
    [{ type: 'decimal', value: '1e14', sqlType: 'decimal(38,4)' } as const, true],
  ])('%j: %s', (p, sendable) => {
    expect(mssqlSendable(p as never, mssqlTypeOf(p as never))).toBe(sendable);
  });
});
