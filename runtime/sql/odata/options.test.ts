import { describe, it, expect } from 'vitest';
import { parseQueryOptions, readRawOptions, type RawOptions } from './options.js';

const columns = { Name: 'ProductName', Price: 'UnitPrice', Id: 'ProductId' };
const relationships = new Map([['Category', { CategoryId: 'CategoryId', Name: 'CategoryName' }]]);
const ctx = { columns, relationships };

function err(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

const accept: Array<[string, { given: RawOptions; want: unknown }]> = [
  ['nothing', { given: {}, want: { select: null, filter: null, orderby: [], top: null, skip: 0, count: false, expand: [] } }],
  ['select with alias, dedupe', { given: { select: 'Name, Price,Name' }, want: { select: [{ kind: 'member', name: 'Name', column: 'ProductName' }, { kind: 'member', name: 'Price', column: 'UnitPrice' }] } }],
  ['select *', { given: { select: '*' }, want: { select: [{ name: 'Name' }, { name: 'Price' }, { name: 'Id' }] } }],
  ['orderby several', { given: { orderby: 'Price desc, Name' }, want: { orderby: [{ member: { column: 'UnitPrice' }, direction: 'desc' }, { member: { column: 'ProductName' }, direction: 'asc' }] } }],
  ['orderby asc explicit', { given: { orderby: 'Id asc' }, want: { orderby: [{ member: { column: 'ProductId' }, direction: 'asc' }] } }],
  ['top/skip/count', { given: { top: '1000', skip: '20', count: 'true' }, want: { top: 1000, skip: 20, count: true } }],
  ['top 0', { given: { top: '0' }, want: { top: 0 } }],
  ['expand', { given: { expand: 'Category' }, want: { expand: [{ name: 'Category', select: null }] } }],
  ['expand with select', { given: { expand: 'Category($select=Name,CategoryId)' }, want: { expand: [{ name: 'Category', select: ['Name', 'CategoryId'] }] } }],
];

const reject: Array<[string, { given: RawOptions; want: string }]> = [
  ['orderby unknown', { given: { orderby: 'Secret' }, want: 'Invalid orderby field: Secret' }],
  ['orderby db name', { given: { orderby: 'UnitPrice desc' }, want: 'Invalid orderby field: UnitPrice' }],
  ['orderby case-sensitive', { given: { orderby: 'name' }, want: 'Invalid orderby field: name' }],
  ['orderby empty', { given: { orderby: '' }, want: 'Empty orderby clause' }],
  ['orderby blank', { given: { orderby: '  ' }, want: 'Empty orderby clause' }],
  ['orderby trailing comma', { given: { orderby: 'Name,' }, want: 'Empty orderby clause' }],
  ['orderby bad direction', { given: { orderby: 'Name up' }, want: "$orderby: expected 'asc' or 'desc', found 'up' at position 6" }],
  ['orderby injection', { given: { orderby: 'Name; DROP TABLE x' }, want: "$orderby: expected 'asc' or 'desc', found ';' at position 5" }],
  ['orderby extra word', { given: { orderby: 'Name asc, Price desc desc' }, want: "$orderby: unexpected 'desc' at position 22" }],
  ['orderby too many fields', { given: { orderby: Array(21).fill('Name').join(',') }, want: '$orderby: more than 20 fields at position 101' }],
  ['top above max', { given: { top: '1001' }, want: '$top cannot exceed 1000' }],
  ['top huge', { given: { top: '99999999999999999999999' }, want: '$top cannot exceed 1000' }],
  ['top negative', { given: { top: '-1' }, want: '$top cannot be negative' }],
  ['top not a number', { given: { top: '10abc' }, want: "$top must be an integer, found '10abc'" }],
  ['skip negative', { given: { skip: '-5' }, want: '$skip cannot be negative' }],
  ['skip decimal', { given: { skip: '1.5' }, want: "$skip must be an integer, found '1.5'" }],
  ['skip too large', { given: { skip: '2147483648' }, want: '$skip cannot exceed 2147483647' }],
  ['count', { given: { count: 'yes' }, want: "$count must be true or false, found 'yes'" }],
  ['select unknown', { given: { select: 'Name,Password' }, want: "$select: unknown column 'Password' at position 6" }],
  ['select empty item', { given: { select: 'Name,,Price' }, want: '$select: empty column name at position 6' }],
  ['select empty', { given: { select: '' }, want: '$select: empty column list' }],
  ['select two words', { given: { select: 'Name Price' }, want: "$select: unexpected 'Price' at position 6" }],
  ['expand unknown', { given: { expand: 'Supplier' }, want: "$expand: unknown relationship 'Supplier' at position 1" }],
  ['expand nested filter', { given: { expand: 'Category($filter=Name eq 1)' }, want: "$expand: only $select is supported inside parentheses, found '$filter' at position 10" }],
  ['expand nested unknown column', { given: { expand: 'Category($select=Secret)' }, want: "$expand: unknown column 'Secret' at position 18" }],
  ['expand unclosed', { given: { expand: 'Category($select=Name' }, want: "$expand: expected ')' at position 22" }],
  ['expand twice', { given: { expand: 'Category,Category' }, want: "$expand: relationship 'Category' given twice at position 10" }],
];

describe('parseQueryOptions', () => {
  it.each(accept)('accepts %s', (_n, { given, want }) => {
    expect(parseQueryOptions(given, ctx)).toMatchObject(want as object);
  });
  it.each(reject)('rejects %s', (_n, { given, want }) => {
    expect(err(() => parseQueryOptions(given, ctx))).toBe(want);
  });
  it('rejects $expand where relationships are not supported', () => {
    expect(err(() => parseQueryOptions({ expand: 'Category' }, { columns, relationships: null }))).toBe('$expand is not supported on this endpoint');
  });
});

describe('readRawOptions', () => {
  it('keeps $ options and ignores others', () => {
    expect(readRawOptions({ $top: '5', $filter: 'x', MinPrice: '3' })).toEqual({ top: '5', filter: 'x' });
  });
  it.each([
    ['unknown option', { $search: 'x' }, "Unsupported query option '$search'"],
    ['repeated option', { $top: ['1', '2'] }, '$top given more than once'],
  ])('rejects %s', (_n, given, want) => {
    expect(err(() => readRawOptions(given))).toBe(want);
  });
});
