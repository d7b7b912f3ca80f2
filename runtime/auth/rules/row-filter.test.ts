import { describe, expect, it } from 'vitest';
import { evaluate } from '../../sql/odata/evaluate.js';
import type { Member } from '../../sql/odata/ast.js';
import { bindRowFilter, claimNames, parseRowFilter } from './row-filter.js';

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
});
