import { describe, expect, it } from 'vitest';
import type { SnapshotColumn } from '../contract/db-snapshot.js';
import { boundOfColumn, fitsBound, fitsColumn, keepBounds } from './column-bounds.js';
import type { TypedValue } from './plan.js';

const col = (type: string, extra: Partial<SnapshotColumn> = {}): SnapshotColumn => ({ name: 'Id', type, nullable: false, ...extra });
const int = (value: number): TypedValue => ({ type: Math.abs(value) <= 2_147_483_647 ? 'int' : 'bigint', value });
const text = (value: string): TypedValue => ({ type: 'string', value });

describe('fitsBound', () => {
  it.each<[string, SnapshotColumn, TypedValue, boolean]>([
    ['integer: the top of the range', col('integer'), int(2_147_483_647), true],
    ['integer: one above', col('integer'), int(2_147_483_648), false],
    ['integer: the bottom of the range', col('integer'), int(-2_147_483_648), true],
    ['integer: one below', col('integer'), int(-2_147_483_649), false],
    ['SQL Server int', col('int'), int(99_999_999_999), false],
    ['smallint', col('smallint'), int(32_768), false],
    ['tinyint: no negatives', col('tinyint'), int(-1), false],
    ['bigint: every parsed key fits', col('bigint'), int(999_999_999_999_999), true],
    ['numeric(5,0)', col('numeric', { precision: 5, scale: 0 }), int(100_000), false],
    ['numeric(5,0): five digits', col('numeric', { precision: 5, scale: 0 }), int(-99_999), true],
    ['numeric(7,2): five digits before the point', col('numeric', { precision: 7, scale: 2 }), int(100_000), false],
    ['integer column, a text key: not this bound (the kind check decides)', col('integer'), text('abc'), true],
    ['varchar(5): five characters', col('character varying', { maxLength: 5 }), text('abcde'), true],
    ['varchar(5): six', col('nvarchar', { maxLength: 5 }), text('abcdef'), false],
    ['varchar(2): two characters of two UTF-16 units each', col('varchar', { maxLength: 2 }), text('🚢🚢'), true],
    ['varchar(2): trailing blanks (SQL Server ignores them)', col('varchar', { maxLength: 2 }), text('ab   '), true],
    ['varchar(5): a GUID-shaped key', col('varchar', { maxLength: 5 }), { type: 'guid', value: '6f9619ff-8b86-d011-b42d-00c04fc964ff' }, false],
    ['varchar(5): a number key is not measured', col('varchar', { maxLength: 5 }), int(1_234_567), true],
    ['char(2): padded, never bounded', col('character', { maxLength: 2 }), text('abc'), true],
    ['text: unbounded', col('text'), text('x'.repeat(400)), true],
    ['uuid: not bounded here', col('uuid'), text('x'), true],
  ])('%s', (_name, column, value, fits) => {
    expect(fitsBound(value, boundOfColumn(column))).toBe(fits);
  });
});

describe('fitsColumn', () => {
  it('reads the bounds kept with a kinds map, by database column name', () => {
    const kinds = new Map();
    keepBounds(kinds, [col('integer', { name: 'WarehouseId' })]);
    expect(fitsColumn(kinds, 'WarehouseId', int(99_999_999_999))).toBe(false);
    expect(fitsColumn(kinds, 'WarehouseId', int(5))).toBe(true);
    expect(fitsColumn(kinds, 'Other', int(99_999_999_999))).toBe(true);
  });

  it('fits anything when the kinds were not read (procedures, a failed catalogue read)', () => {
    expect(fitsColumn(undefined, 'WarehouseId', int(99_999_999_999))).toBe(true);
    expect(fitsColumn(new Map(), 'WarehouseId', int(99_999_999_999))).toBe(true);
  });
});

describe('fitsColumn: the key column kind', () => {
  const kindsOf = (...columns: [string, SnapshotColumn][]) => {
    const kinds = new Map(columns.map(([kind, column]) => [column.name, kind as 'number' | 'guid' | 'string' | 'date']));
    keepBounds(kinds, columns.map(([, column]) => column));
    return kinds;
  };
  const guid = (value: string): TypedValue => ({ type: 'guid', value });
  const kinds = kindsOf(
    ['number', col('integer', { name: 'IntKey' })],
    ['number', col('bigint', { name: 'BigKey' })],
    ['number', col('numeric', { name: 'DecKey', precision: 9, scale: 2 })],
    ['guid', col('uuid', { name: 'GuidKey' })],
    ['string', col('text', { name: 'TextKey' })],
    ['date', col('date', { name: 'DateKey' })],
  );

  it.each<[string, string, TypedValue, boolean]>([
    ['integer: a number key', 'IntKey', int(7), true],
    ['integer: text', 'IntKey', text('abc'), false],
    ['integer: a fraction (URL text)', 'IntKey', text('1.5'), false],
    ['integer: a fraction (body number)', 'IntKey', { type: 'decimal', value: '1.5' }, false],
    ['integer: digits in a body string', 'IntKey', text('12'), true],
    ['integer: a GUID', 'IntKey', guid('6f9619ff-8b86-d011-b42d-00c04fc964ff'), false],
    ['integer: out of range stays refused', 'IntKey', int(2_147_483_648), false],
    ['bigint: a fraction', 'BigKey', text('1.5'), false],
    ['bigint: 19 digits (parsed as text)', 'BigKey', text('1234567890123456789'), true],
    ['numeric(9,2): a fraction', 'DecKey', text('1.25'), true],
    ['numeric(9,2): text', 'DecKey', text('1,25'), false],
    ['uuid: a GUID', 'GuidKey', guid('6f9619ff-8b86-d011-b42d-00c04fc964ff'), true],
    ['uuid: a GUID in a body string', 'GuidKey', text('6F9619FF-8B86-D011-B42D-00C04FC964FF'), true],
    ['uuid: a number', 'GuidKey', int(5), false],
    ['uuid: text', 'GuidKey', text('abc'), false],
    ['text: anything', 'TextKey', text('abc'), true],
    ['date: left to the database', 'DateKey', text('2024-01-01'), true],
    ['unknown column: not checked', 'Other', text('abc'), true],
  ])('%s', (_name, column, value, fits) => {
    expect(fitsColumn(kinds, column, value)).toBe(fits);
  });
});
