import { describe, expect, it } from 'vitest';
import { evaluate } from '../../sql/odata/evaluate.js';
import type { Member } from '../../sql/odata/ast.js';
import { bindRowFilter, claimNames, noRows, parseRowFilter, typedRowFilter } from './row-filter.js';

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

  it('typedRowFilter: a boolean claim against a column that is not boolean is no rows; other claims are kept for the database', () => {
    const kinds = new Map([['customer_id', 'number'], ['region', 'string'], ['name', 'string']] as const);
    const typed = (claims: Record<string, unknown>) => typedRowFilter(bindRowFilter(parseRowFilter('CustomerId eq @claims.customer_id', COLUMNS), claims, ANY), kinds);
    // SQL Server turned `true` into 1 (customer 1's rows), Babelfish compared every non-zero id as true (every row)
    expect(typed({ customer_id: true })).toEqual(noRows(ANY));
    expect(typed({ customer_id: false })).toEqual(noRows(ANY));
    expect(typedRowFilter(bindRowFilter(parseRowFilter('CustomerId in (1, @claims.customer_id)', COLUMNS), { customer_id: true }, ANY), kinds)).toEqual(noRows(ANY));
    // "7" is customer 7 on every database; text that is not a number is the database's 400
    expect(typed({ customer_id: '7' })).toEqual(bindRowFilter(parseRowFilter('CustomerId eq @claims.customer_id', COLUMNS), { customer_id: '7' }, ANY));
    expect(typed({ customer_id: 7 })).toEqual(bindRowFilter(parseRowFilter('CustomerId eq @claims.customer_id', COLUMNS), { customer_id: 7 }, ANY));
    expect(evaluate(typed({ customer_id: true }), { CustomerId: 1, Region: 'EU', Name: 'x' })).not.toBe(true);
  });
});

