import { describe, expect, it } from 'vitest';
import { applyOutputNames } from './apply-ast.js';
import { parseApply } from './apply-parser.js';
import { hiddenColumns } from './hidden-columns.js';

const COLUMNS = { Id: 'ProductId', Name: 'ProductName', Price: 'UnitPrice', CategoryId: 'CategoryId', Secret: 'Secret' };
const HIDDEN = hiddenColumns([{ db: 'Secret', name: 'Secret' }], { remove: [], mask: ['Secret'] });
const parse = (text: string) => parseApply(text, COLUMNS, HIDDEN);

describe('parseApply', () => {
  it('groupby with aggregates: members resolved (exposed name, database column), output names in order', () => {
    const apply = parse('groupby((CategoryId, Name), aggregate(Price with sum as Total, $count as N))');
    expect(apply.groupBy).toEqual([
      { kind: 'member', name: 'CategoryId', column: 'CategoryId' },
      { kind: 'member', name: 'Name', column: 'ProductName' },
    ]);
    expect(apply.aggregates).toEqual([
      { kind: 'method', method: 'sum', member: { kind: 'member', name: 'Price', column: 'UnitPrice' }, alias: 'Total' },
      { kind: 'count', alias: 'N' },
    ]);
    expect(apply.filter).toBeNull();
    expect(applyOutputNames(apply)).toEqual(['CategoryId', 'Name', 'Total', 'N']);
  });

  it('filters first, ANDed; groupby without aggregate; aggregate alone', () => {
    expect(parse("filter(Price gt 1)/filter(Name eq 'x')/groupby((Id))").filter).toEqual({
      kind: 'logical', op: 'and',
      left: { kind: 'compare', op: 'gt', left: { kind: 'member', name: 'Price', column: 'UnitPrice' }, right: { kind: 'literal', type: 'int', value: 1 } },
      right: { kind: 'compare', op: 'eq', left: { kind: 'member', name: 'Name', column: 'ProductName' }, right: { kind: 'literal', type: 'string', value: 'x' } },
    });
    expect(parse('groupby((Id))').aggregates).toEqual([]);
    expect(parse('aggregate(Price with min as Low)').groupBy).toEqual([]);
  });

  it.each([
    ['', '$apply: empty'],
    ['groupby((Id))/filter(Price gt 1)', '$apply: nothing may follow groupby(...) at position 14'],
    ['filter(Price gt 1)', '$apply: must end with groupby(...) or aggregate(...)'],
    ['topcount(5,Price)', "$apply: unknown transformation 'topcount'; use filter, groupby or aggregate at position 1"],
    ['groupby(Id)', "$apply: expected '(' (groupby takes a parenthesised list of columns), found 'Id' at position 9"],
    ['groupby((Id,Id))', "$apply: column 'Id' grouped twice at position 13"],
    ['aggregate(Price sum as S)', "$apply: expected 'with', found 'sum' at position 17"],
    ['aggregate(Price with sum S)', "$apply: expected 'as', found 'S' at position 26"],
    ['aggregate(Price with sum as S, $count as S)', "$apply: alias 'S' given twice at position 32"],
    ['aggregate(Price with avg as S)', "$apply: unknown aggregation method 'avg'; use sum, average, min, max, countdistinct at position 22"],
    ['aggregate(Secret with max as S)', "$apply: column 'Secret' is masked in responses and cannot be aggregated at position 11"],
    ['filter(Secret eq 1)/aggregate($count as N)', "$apply: filter: column 'Secret' is masked in responses and cannot be filtered on at position 8"],
    ['filter(Price gt 1 and)/aggregate($count as N)', '$apply: filter: unexpected end of expression at position 22'],
  ])('%j is refused: %s', (text, message) => {
    expect(() => parse(text)).toThrow(message);
  });
});
