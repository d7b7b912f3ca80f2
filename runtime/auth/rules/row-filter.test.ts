import { describe, expect, it } from 'vitest';
import { evaluate } from '../../sql/odata/evaluate.js';
import type { Member } from '../../sql/odata/ast.js';
import { bindRowFilter, claimNames, noRows, parseRowFilter, typedRowFilter } from './row-filter.js';
import { kindOfSqlType } from '../../sql/column-types.js';
import { keepBounds } from '../../sql/column-bounds.js';

const COLUMNS = { CustomerId: 'customer_id', Region: 'region', Name: 'name' };
const ANY: Member = { kind: 'member', name: 'CustomerId', column: 'customer_id' };
const ROW = { CustomerId: 7, Region: 'EU', Name: "Joe's @claims.x" };

function passes(filter: string, claims: Record<string, unknown>, row: Record<string, unknown> = ROW): boolean | null {
  return evaluate(bindRowFilter(parseRowFilter(filter, COLUMNS), claims, ANY), row);
}

describe('RowFilter', () => {
  it('binds claims as literals (numbers, strings, booleans), in comparisons, in lists and in functions', () => {
    expect(passes('CustomerId eq @claims.customer_id', { customer_id: 7 })).toBe(true);
    expect(passes('CustomerId eq @claims.customer_id', { customer_id: 8 })).toBe(false);
    expect(passes("Region in ('US', @claims.region)", { region: 'EU' })).toBe(true);
    expect(passes('tolower(Region) eq tolower(@claims.region)', { region: 'eu' })).toBe(true);
    expect(passes('CustomerId eq @claims.id and Region eq @claims.region', { id: 7, region: 'EU' })).toBe(true);
    expect(claimNames(parseRowFilter('CustomerId eq @claims.b or Region eq @claims.a', COLUMNS))).toEqual(['a', 'b']);
  });

  it('a missing claim, or one of another type, is no rows (also for rows with NULLs), never all rows', () => {
    for (const claims of [{}, { customer_id: null }, { customer_id: [7] }, { customer_id: { id: 7 } }]) {
      expect(passes('CustomerId eq @claims.customer_id', claims)).not.toBe(true);
      expect(passes('not (CustomerId eq @claims.customer_id)', claims)).not.toBe(true);
      expect(passes('CustomerId eq @claims.customer_id', claims, { CustomerId: null, Region: null, Name: null })).not.toBe(true);
    }
  });

  it('an @claims text inside a string literal stays text; members are resolved to columns', () => {
    expect(passes("Name eq 'Joe''s @claims.x'", {})).toBe(true);
    expect(parseRowFilter('CustomerId eq @claims.c', COLUMNS)).toEqual({
      kind: 'compare', op: 'eq', left: { kind: 'member', name: 'CustomerId', column: 'customer_id' }, right: { kind: 'claim', name: 'c' },
    });
  });

  it.each([
    ['unknown column', 'Nope eq @claims.a', "RowFilter: unknown column 'Nope' at position 1"],
    ['a bare @', 'CustomerId eq @customer', "RowFilter: expected '@claims.<name>' at position 15"],
    ['claim as a pattern', 'contains(Name, @claims.a)', 'RowFilter: @claims cannot be the pattern of contains()'],
  ])('refuses %s', (_name, filter, message) => {
    expect(() => parseRowFilter(filter, COLUMNS)).toThrow(message);
  });

  describe('typedRowFilter: a claim no value of the column can equal is no rows; a number\'s own text is that number', () => {
    const kinds = new Map([['customer_id', 'number'], ['region', 'string'], ['name', 'string']] as const);
    const bound = (filter: string, claims: Record<string, unknown>) => bindRowFilter(parseRowFilter(filter, COLUMNS), claims, ANY);
    const typed = (claims: Record<string, unknown>, filter = 'CustomerId eq @claims.customer_id') => typedRowFilter(bound(filter, claims), kinds);

    it('a boolean against a column that is not boolean (SQL Server: true = customer 1, Babelfish: every row)', () => {
      expect(typed({ customer_id: true })).toEqual(noRows(ANY));
      expect(typed({ customer_id: false })).toEqual(noRows(ANY));
      expect(typed({ customer_id: true }, 'CustomerId in (1, @claims.customer_id)')).toEqual(noRows(ANY));
      expect(typed({ region: true }, 'Region eq @claims.region')).toEqual(noRows({ kind: 'member', name: 'Region', column: 'region' }));
      expect(evaluate(typed({ customer_id: true }), { CustomerId: 1, Region: 'EU', Name: 'x' })).not.toBe(true);
    });

    it('a number is kept; "7", a number\'s own text, is the number 7 (customer 7 on every database, as 7)', () => {
      expect(typed({ customer_id: 7 })).toEqual(bound('CustomerId eq @claims.customer_id', { customer_id: 7 }));
      expect(typed({ customer_id: '7' })).toEqual(typed({ customer_id: 7 }));
      expect(typed({ customer_id: '-12.5' })).toEqual({ ...(typed({ customer_id: 7 }) as object), right: { kind: 'literal', type: 'decimal', value: '-12.5' } });
      expect(typed({ customer_id: '7' }, 'CustomerId in (1, @claims.customer_id)')).toEqual(typed({ customer_id: 7 }, 'CustomerId in (1, @claims.customer_id)'));
    });

    it.each([
      'abc', '', ' 7', '7 ', '07', '7.0', '+7', '-0', '7e0', '0x7', '1,000', '7 OR 1=1', 'NaN', 'Infinity', '99999999999999999999999',
    ])('text %j against a number column: no rows, never more numbers than one', (claim) => {
      expect(typed({ customer_id: claim })).toEqual(noRows(ANY));
      expect(typed({ customer_id: claim }, 'not (CustomerId eq @claims.customer_id)')).toEqual(noRows(ANY));
    });

    it('a number no JSON parser kept exactly (beyond 2^53) or written with an exponent: no rows, whatever the column', () => {
      for (const claim of [2 ** 53 + 2, 1e300, 1e-7, -1e21]) {
        expect(bound('CustomerId eq @claims.customer_id', { customer_id: claim }), String(claim)).toEqual(noRows(ANY));
      }
      expect(bound('CustomerId eq @claims.customer_id', { customer_id: 7.5 })).toEqual({ ...(bound('CustomerId eq @claims.customer_id', { customer_id: 7 }) as object), right: { kind: 'literal', type: 'decimal', value: '7.5' } });
    });

    it('a number against a text column is its own text', () => {
      expect(typed({ region: 42 }, 'Region eq @claims.region')).toEqual(bound('Region eq @claims.region', { region: '42' }));
      expect(typed({ region: -0.5 }, 'Region eq @claims.region')).toEqual(bound('Region eq @claims.region', { region: '-0.5' }));
    });
  });

  describe('typedRowFilter with the catalogue\'s kinds and bounds', () => {
    const columns = [
      { name: 'id', type: 'integer' }, { name: 'small', type: 'smallint' }, { name: 'big', type: 'bigint' }, { name: 'price', type: 'numeric', precision: 5, scale: 2 },
      { name: 'ratio', type: 'double precision' }, { name: 'active', type: 'boolean' }, { name: 'day', type: 'date' }, { name: 'at', type: 'timestamp with time zone' },
      { name: 'clock', type: 'time' }, { name: 'uid', type: 'uuid' }, { name: 'label', type: 'text' },
    ].map((c) => ({ nullable: true, ...c }));
    const kinds = new Map(columns.map((c) => [c.name, kindOfSqlType(c.type)!]));
    keepBounds(kinds, columns);
    const map = Object.fromEntries(columns.map((c) => [c.name, c.name]));
    const member: Member = { kind: 'member', name: 'id', column: 'id' };
    const fits = (column: string, claim: unknown): boolean => {
      const filter = bindRowFilter(parseRowFilter(`${column} eq @claims.c`, map), { c: claim }, member);
      return JSON.stringify(typedRowFilter(filter, kinds)) !== JSON.stringify(noRows({ kind: 'member', name: column, column }));
    };

    it.each([
      ['id', 2147483647, true], ['id', 2147483648, false], ['id', '-2147483648', true], ['id', '-2147483649', false], ['id', 7.5, false], ['id', '7.5', false],
      ['small', 32767, true], ['small', 40000, false],
      ['big', '9223372036854775807', true], ['big', '9223372036854775808', false], ['big', '-9223372036854775808', true],
      ['price', 999.99, true], ['price', '999.99', true], ['price', 1000, false], ['price', '0.5', true],
      ['ratio', 0.25, true], ['ratio', '0.25', true], ['ratio', 'x', false], ['ratio', '18446744073709551616', false],
      ['active', true, true], ['active', false, true], ['active', 1, false], ['active', 0, false], ['active', 'true', false], ['active', '1', false],
      ['day', '2024-02-29', true], ['day', '2024-02-30', false], ['day', '2023-02-29', false], ['day', '2024-1-4', false], ['day', 'today', false], ['day', 20240104, false],
      ['at', '2024-01-04T10:00:00Z', true], ['at', '2024-01-04 10:00:00+02:00', true], ['at', '2024-01-04T25:00:00Z', false], ['at', '2024-02-30T10:00:00Z', false], ['at', 'now', false],
      ['clock', '10:30', true], ['clock', '23:59:59.9999999', true], ['clock', '24:00', false], ['clock', '10:61', false], ['clock', 1030, false],
      ['uid', '6f9619ff-8b86-d011-b42d-00c04fc964ff', true], ['uid', '6f9619ff', false], ['uid', 7, false],
      ['label', 'x', true], ['label', 7, true], ['label', false, false],
    ])('%s against %j: %s', (column, claim, expected) => {
      expect(fits(column, claim)).toBe(expected);
    });
  });
});
