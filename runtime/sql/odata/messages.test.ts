/**
 * Every kind of OData refusal, one example each, with its exact `error` text: the catalogue a
 * reviewer reads to see what a client is told. The spec's four texts (`Invalid orderby field: X`,
 * `Empty orderby clause`, `$skip cannot be negative`, `$top cannot exceed 1000`) are exact; every
 * other message names the option, what it refused and, inside an expression, its 1-based position.
 * Then: whatever the input, a message quotes at most MAX_QUOTED characters of it and never a raw
 * control, format or separator character.
 */
import { describe, expect, it } from 'vitest';
import { parseApplyRequest } from './apply-options.js';
import { ODataError, MAX_QUOTED } from './errors.js';
import { hiddenColumns } from './hidden-columns.js';
import { parseQueryOptions, readRawOptions } from './options.js';
import { checkFilterTypes, type ValueKind } from './type-check.js';

const columns = { Name: 'ProductName', Price: 'UnitPrice', OrderDate: 'OrderDate', Ref: 'Ref', Email: 'Email', Status: 'Status' };
const kinds = new Map<string, ValueKind>([['ProductName', 'string'], ['UnitPrice', 'number'], ['OrderDate', 'date'], ['Ref', 'guid'], ['Email', 'string'], ['Status', 'string']]);
const transforms = { remove: [], rename: { Status: 'OrderStatus' }, mask: ['Email'] };
const hidden = hiddenColumns(Object.entries(columns).map(([name, db]) => ({ name, db })), transforms);
const relationships = new Map([['Category', { CategoryId: 'CategoryId', Name: 'CategoryName' }]]);

/** What the read path does with a query string's options (compile-read.ts), up to the first refusal. */
function refusal(query: Record<string, string | string[]>): { code: string; error: string } | 'accepted' {
  try {
    const raw = readRawOptions(query);
    if (raw.apply !== undefined) {
      parseApplyRequest(raw, columns, hidden, transforms, kinds);
    } else {
      const parsed = parseQueryOptions(raw, { columns, relationships, hidden });
      if (parsed.filter) checkFilterTypes(parsed.filter, kinds);
    }
    return 'accepted';
  } catch (error) {
    if (!(error instanceof ODataError)) throw error;
    return { code: error.code, error: error.message };
  }
}

const BAD = 'SQL_BAD_REQUEST';
const UNKNOWN = 'SQL_UNKNOWN_COLUMN';

const cases: Array<[string, { given: Record<string, string | string[]>; want: [code: string, error: string] }]> = [
  // the spec's texts
  ['spec: unknown $orderby field', { given: { $orderby: 'Secret desc' }, want: [BAD, 'Invalid orderby field: Secret'] }],
  ['spec: empty $orderby', { given: { $orderby: '' }, want: [BAD, 'Empty orderby clause'] }],
  ['spec: negative $skip', { given: { $skip: '-1' }, want: [BAD, '$skip cannot be negative'] }],
  ['spec: $top above 1000', { given: { $top: '1001' }, want: [BAD, '$top cannot exceed 1000'] }],
  // the options themselves
  ['unsupported option', { given: { $search: 'x' }, want: [BAD, "Unsupported query option '$search'"] }],
  ['option given twice', { given: { $top: ['1', '2'] }, want: [BAD, '$top given more than once'] }],
  ['$top not an integer', { given: { $top: '10abc' }, want: [BAD, "$top must be an integer, found '10abc'"] }],
  ['$top negative', { given: { $top: '-1' }, want: [BAD, '$top cannot be negative'] }],
  ['$skip too large', { given: { $skip: '2147483648' }, want: [BAD, '$skip cannot exceed 2147483647'] }],
  ['$count not a boolean', { given: { $count: 'yes' }, want: [BAD, "$count must be true or false, found 'yes'"] }],
  ['option too long', { given: { $filter: 'x'.repeat(4001) }, want: [BAD, '$filter: longer than 4000 characters'] }],
  // $select, $orderby
  ['$select empty', { given: { $select: '' }, want: [BAD, '$select: empty column list'] }],
  ['$select empty name', { given: { $select: 'Name,,Price' }, want: [BAD, '$select: empty column name at position 6'] }],
  ['$select unknown column', { given: { $select: 'Name,Secret' }, want: [UNKNOWN, "$select: unknown column 'Secret' at position 6"] }],
  ['$select two words', { given: { $select: 'Name Price' }, want: [BAD, "$select: unexpected 'Price' at position 6"] }],
  ['$orderby direction', { given: { $orderby: 'Name up' }, want: [BAD, "$orderby: expected 'asc' or 'desc', found 'up' at position 6"] }],
  ['$orderby extra word', { given: { $orderby: 'Name asc desc' }, want: [BAD, "$orderby: unexpected 'desc' at position 10"] }],
  ['$orderby masked column', { given: { $orderby: 'Email' }, want: [BAD, "$orderby: column 'Email' is masked in responses and cannot be used for ordering at position 1"] }],
  // $filter syntax
  ['$filter empty', { given: { $filter: '' }, want: [BAD, '$filter: empty expression'] }],
  ['$filter unexpected parenthesis', { given: { $filter: "Name eq 'a')" }, want: [BAD, "$filter: unexpected ')' at position 12"] }],
  ['$filter unexpected end', { given: { $filter: 'Name eq' }, want: [BAD, '$filter: unexpected end of expression at position 8'] }],
  ['$filter unclosed parenthesis', { given: { $filter: "(Name eq 'a'" }, want: [BAD, "$filter: expected ')', found end of expression at position 13"] }],
  ['$filter no operator', { given: { $filter: 'Price 5' }, want: [BAD, "$filter: expected a comparison operator, found '5' at position 7"] }],
  ['$filter unexpected token', { given: { $filter: 'Price gt 5 ; 1' }, want: [BAD, "$filter: unexpected ';' at position 12"] }],
  ['$filter unexpected character', { given: { $filter: 'Price gt 5 \u0001' }, want: [BAD, "$filter: unexpected character '\\u0001' at position 12"] }],
  ['$filter unterminated string', { given: { $filter: "Name eq 'abc" }, want: [BAD, '$filter: unterminated string at position 9'] }],
  ['$filter string too long', { given: { $filter: `Name eq '${'a'.repeat(1001)}'` }, want: [BAD, '$filter: string literal longer than 1000 characters at position 9'] }],
  ['$filter NUL', { given: { $filter: "Name eq 'a\u0000'" }, want: [BAD, '$filter: a string must not contain the NUL character (U+0000) at position 9'] }],
  ['$filter lone surrogate', { given: { $filter: "Name eq 'a\ud800'" }, want: [BAD, '$filter: a string must be valid Unicode (it contains a lone surrogate) at position 9'] }],
  ['$filter invalid date', { given: { $filter: 'OrderDate eq 2024-02-30' }, want: [BAD, "$filter: invalid date '2024-02-30' at position 14"] }],
  ['$filter invalid guid', { given: { $filter: "Ref eq guid'x'" }, want: [BAD, "$filter: invalid guid 'x' at position 12"] }],
  ['$filter unknown column', { given: { $filter: 'Secret eq 1' }, want: [UNKNOWN, "$filter: unknown column 'Secret' at position 1"] }],
  ['$filter masked column', { given: { $filter: "Email eq 'a'" }, want: [BAD, "$filter: column 'Email' is masked in responses and cannot be filtered on at position 1"] }],
  ['$filter unknown function', { given: { $filter: 'soundex(Name) eq 1' }, want: [BAD, "$filter: unknown function 'soundex' at position 1"] }],
  ['$filter function arity', { given: { $filter: "length(Name, 'x') eq 1" }, want: [BAD, '$filter: length takes 1 argument, got 2 at position 17'] }],
  ['$filter match compared with a number', { given: { $filter: "contains(Name,'a') eq 1" }, want: [BAD, '$filter: contains(...) can only be compared with true or false at position 23'] }],
  ['$filter two literals', { given: { $filter: '1 eq 1' }, want: [BAD, '$filter: a comparison needs a column or function on one side at position 1'] }],
  ['$filter null ordered', { given: { $filter: 'Price gt null' }, want: [BAD, '$filter: null can only be compared with eq or ne at position 10'] }],
  ['$filter in list item', { given: { $filter: 'Price in (1, Name)' }, want: [BAD, "$filter: expected a literal in the in list, found 'Name' at position 14"] }],
  ['$filter too deep', { given: { $filter: `${'('.repeat(33)}Price eq 1${')'.repeat(33)}` }, want: [BAD, '$filter: nesting deeper than 32 at position 33'] }],
  // $filter types (column kinds from the catalogue)
  ['$filter kinds differ', { given: { $filter: 'Price eq 5 and OrderDate eq 5' }, want: [BAD, "$filter: 'OrderDate' is a date and cannot be compared with a number at position 16"] }],
  ['$filter function argument kind', { given: { $filter: 'year(Name) eq 2024' }, want: [BAD, "$filter: year(...) needs a date or a date-time, but 'Name' is a string at position 6"] }],
  ['$filter function of a literal', { given: { $filter: "tolower('A') eq Name" }, want: [BAD, '$filter: tolower(...) needs a column or a function of one as its first argument, not a literal at position 9'] }],
  // $expand
  ['$expand unknown relationship', { given: { $expand: 'Supplier' }, want: [BAD, "$expand: unknown relationship 'Supplier' at position 1"] }],
  ['$expand not a name', { given: { $expand: ',' }, want: [BAD, "$expand: expected a relationship name, found ',' at position 1"] }],
  ['$expand nested option', { given: { $expand: 'Category($top=1)' }, want: [BAD, "$expand: only $select is supported inside parentheses, found '$top' at position 10"] }],
  ['$expand nested unknown column', { given: { $expand: 'Category($select=Secret)' }, want: [UNKNOWN, "$expand: unknown column 'Secret' at position 18"] }],
  // $apply
  ['$apply unknown transformation', { given: { $apply: 'compute(Price)' }, want: [BAD, "$apply: unknown transformation 'compute'; use filter, groupby or aggregate at position 1"] }],
  ['$apply unknown method', { given: { $apply: 'aggregate(Price with median as M)' }, want: [BAD, "$apply: unknown aggregation method 'median'; use sum, average, min, max, countdistinct at position 22"] }],
  ['$apply filter syntax', { given: { $apply: 'filter(Price gt)/aggregate($count as N)' }, want: [BAD, '$apply: filter: unexpected end of expression at position 16'] }],
  ['$apply filter kinds', { given: { $apply: "filter(Price eq 'x')/aggregate($count as N)" }, want: [BAD, "$apply: filter: 'Price' is a number and cannot be compared with a string at position 8"] }],
  ['$apply sum of a string', { given: { $apply: 'aggregate(Name with sum as S)' }, want: [BAD, '$apply: sum needs a number column; Name is a string at position 11'] }],
  ['$apply with $filter', { given: { $apply: 'aggregate($count as N)', $filter: 'Price gt 1' }, want: [BAD, '$filter cannot be combined with $apply; put filter(...) first inside $apply'] }],
];

describe('OData refusals, one of each kind', () => {
  it.each(cases)('%s', (_name, { given, want: [code, error] }) => {
    expect(refusal(given)).toEqual({ code, error });
  });
});

describe('what a message quotes of the caller\'s text', () => {
  const long = 'x'.repeat(3000);
  const hostile: Array<[string, Record<string, string>]> = [
    ['a long unknown option', { [`$${long}`]: '1' }],
    ['a long $top', { $top: long }],
    ['a long $count', { $count: long }],
    ['a long $orderby field', { $orderby: long }],
    ['a long $orderby direction', { $orderby: `Name ${long}` }],
    ['a long $select column', { $select: long }],
    ['a long $filter column', { $filter: `${long} eq 1` }],
    ['a long $filter function', { $filter: `${long}(Name) eq 1` }],
    ['a long number', { $filter: `Price eq ${'9'.repeat(3000)}` }],
    ['a long guid', { $filter: `Ref eq guid'${long}'` }],
    ['a long string where a literal may not be', { $filter: `Price eq 1 '${long}'` }],
    ['a long $expand relationship', { $expand: long }],
    ['a long $apply transformation', { $apply: long }],
    ['control characters', { $orderby: 'Name \u001b[2J\u202e\n' }],
    ['a control character in a field name', { $orderby: "'\u001b[2J'" }],
    ['a pair of surrogates cut at the bound', { $filter: `${'x'.repeat(MAX_QUOTED - 1)}\u{1F6A2}\u{1F6A2} eq 1` }],
  ];

  it.each(hostile)('%s', (_name, query) => {
    const result = refusal(query);
    if (result === 'accepted') throw new Error('accepted');
    expect(result.error.length).toBeLessThan(MAX_QUOTED * 2 + 120);
    expect(result.error).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u);
    expect(result.error).not.toMatch(/(?:[^\ud800-\udbff]|^)[\udc00-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
