import { describe, it, expect } from 'vitest';
import { parseFilter } from './filter-parser.js';
import type { FilterExpr, ValueExpr } from './ast.js';

const columns = { Name: 'ProductName', Price: 'UnitPrice', Stock: 'UnitsInStock', CreatedAt: 'CreatedAt', Id: 'ProductId', Active: 'IsActive' };

/** Compact rendering of the AST so expectations stay readable. */
function show(e: FilterExpr | ValueExpr): string {
  switch (e.kind) {
    case 'literal': return `${e.type}:${JSON.stringify(e.value)}`;
    case 'member': return `[${e.column}]`;
    case 'call': return `${e.fn}(${e.args.map(show).join(',')})`;
    case 'compare': return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'logical': return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'not': return `not ${show(e.operand)}`;
    case 'in': return `(${show(e.operand)} in ${e.items.map(show).join('|')})`;
    case 'match': return `${e.fn}(${show(e.operand)},${JSON.stringify(e.pattern)})`;
  }
}

const accept: Array<[string, { given: string; want: string }]> = [
  ['eq string', { given: "Name eq 'Widget'", want: '([ProductName] eq string:"Widget")' }],
  ['escaped quote', { given: "Name eq 'O''Brien'", want: '([ProductName] eq string:"O\'Brien")' }],
  ['empty string', { given: "Name eq ''", want: '([ProductName] eq string:"")' }],
  ['int', { given: 'Price gt 10', want: '([UnitPrice] gt int:10)' }],
  ['negative int', { given: 'Stock ge -5', want: '([UnitsInStock] ge int:-5)' }],
  ['decimal keeps text', { given: 'Price le 12.50', want: '([UnitPrice] le decimal:"12.50")' }],
  ['exponent', { given: 'Price lt 1e3', want: '([UnitPrice] lt decimal:"1e3")' }],
  ['big int becomes decimal', { given: 'Id eq 12345678901234567890', want: '([ProductId] eq decimal:"12345678901234567890")' }],
  ['all compare ops', { given: 'Stock ne 1 or Stock lt 2', want: '(([UnitsInStock] ne int:1) or ([UnitsInStock] lt int:2))' }],
  ['and binds tighter than or', { given: 'Stock eq 1 or Stock eq 2 and Price gt 3', want: '(([UnitsInStock] eq int:1) or (([UnitsInStock] eq int:2) and ([UnitPrice] gt int:3)))' }],
  ['parentheses', { given: '(Stock eq 1 or Stock eq 2) and Price gt 3', want: '((([UnitsInStock] eq int:1) or ([UnitsInStock] eq int:2)) and ([UnitPrice] gt int:3))' }],
  ['not', { given: 'not (Price gt 3)', want: 'not ([UnitPrice] gt int:3)' }],
  ['null eq', { given: 'Name eq null', want: '([ProductName] eq null:null)' }],
  ['null on the left', { given: 'null ne Name', want: '(null:null ne [ProductName])' }],
  ['booleans', { given: 'Active eq false', want: '([IsActive] eq boolean:false)' }],
  ['bare boolean column', { given: 'Active and Price gt 1', want: '(([IsActive] eq boolean:true) and ([UnitPrice] gt int:1))' }],
  ['date', { given: 'CreatedAt ge 2024-02-29', want: '([CreatedAt] ge date:"2024-02-29")' }],
  ['datetime Z', { given: 'CreatedAt lt 2024-01-01T10:00:00Z', want: '([CreatedAt] lt datetime:"2024-01-01T10:00:00Z")' }],
  ['datetime offset + fraction', { given: 'CreatedAt lt 2024-01-01T10:00:00.123+02:00', want: '([CreatedAt] lt datetime:"2024-01-01T10:00:00.123+02:00")' }],
  ['time', { given: 'time(CreatedAt) gt 08:30', want: '(time([CreatedAt]) gt time:"08:30")' }],
  ['guid bare', { given: 'Id eq 0F8FAD5B-D9CB-469F-A165-70867728950E', want: '([ProductId] eq guid:"0f8fad5b-d9cb-469f-a165-70867728950e")' }],
  ['guid starting with a letter', { given: 'Id eq abcdef01-d9cb-469f-a165-70867728950e', want: '([ProductId] eq guid:"abcdef01-d9cb-469f-a165-70867728950e")' }],
  ["guid'...'", { given: "Id eq guid'0f8fad5b-d9cb-469f-a165-70867728950e'", want: '([ProductId] eq guid:"0f8fad5b-d9cb-469f-a165-70867728950e")' }],
  ['in list', { given: "Name in ('a', 'b','c')", want: '([ProductName] in string:"a"|string:"b"|string:"c")' }],
  ['contains', { given: "contains(Name,'50%')", want: 'contains([ProductName],"50%")' }],
  ['startswith eq false', { given: "startswith(Name,'x') eq false", want: 'not startswith([ProductName],"x")' }],
  ['endswith of tolower', { given: "endswith(tolower(Name),'z')", want: 'endswith(tolower([ProductName]),"z")' }],
  ['nested functions', { given: "length(trim(toupper(Name))) gt 3", want: '(length(trim(toupper([ProductName]))) gt int:3)' }],
  ['indexof', { given: "indexof(Name,'x') eq -1", want: '(indexof([ProductName],string:"x") eq int:-1)' }],
  ['date parts', { given: 'year(CreatedAt) eq 2024 and month(CreatedAt) eq 2 and day(CreatedAt) eq 3 and hour(CreatedAt) eq 4 and minute(CreatedAt) eq 5 and second(CreatedAt) eq 6', want: '((((((year([CreatedAt]) eq int:2024) and (month([CreatedAt]) eq int:2)) and (day([CreatedAt]) eq int:3)) and (hour([CreatedAt]) eq int:4)) and (minute([CreatedAt]) eq int:5)) and (second([CreatedAt]) eq int:6))' }],
  ['date()', { given: 'date(CreatedAt) eq 2024-01-01', want: '(date([CreatedAt]) eq date:"2024-01-01")' }],
  ['unicode string', { given: "Name eq 'Grüße 日本 🚀'", want: '([ProductName] eq string:"Grüße 日本 🚀")' }],
  ['injection stays a value', { given: "Name eq 'x''; DROP TABLE Products; --'", want: '([ProductName] eq string:"x\'; DROP TABLE Products; --")' }],
  ['whitespace', { given: "  Price\tgt  1  ", want: '([UnitPrice] gt int:1)' }],
  ['32 levels of parentheses', { given: '('.repeat(31) + 'Price gt 1' + ')'.repeat(31), want: '([UnitPrice] gt int:1)' }],
];

const reject: Array<[string, { given: string; want: string }]> = [
  ['unknown column', { given: "Secret eq 'x'", want: "$filter: unknown column 'Secret' at position 1" }],
  ['db name instead of alias', { given: 'UnitPrice gt 1', want: "$filter: unknown column 'UnitPrice' at position 1" }],
  ['prototype names are not columns', { given: 'constructor eq 1', want: "$filter: unknown column 'constructor' at position 1" }],
  ['case-sensitive columns', { given: 'price gt 1', want: "$filter: unknown column 'price' at position 1" }],
  ['stray paren', { given: 'Price gt 10 and (Stock)) ', want: "$filter: unexpected ')' at position 24" }],
  ['unclosed paren', { given: '(Price gt 1', want: "$filter: expected ')', found end of expression at position 12" }],
  ['missing operand', { given: 'Price gt', want: '$filter: unexpected end of expression at position 9' }],
  ['missing operator', { given: 'Price 10', want: "$filter: expected a comparison operator, found '10' at position 7" }],
  ['unterminated string', { given: "Name eq 'abc", want: '$filter: unterminated string at position 9' }],
  ['unknown function', { given: 'substringof(Name) eq 1', want: "$filter: unknown function 'substringof' at position 1" }],
  ['arity', { given: "tolower(Name,'x') eq 'a'", want: '$filter: tolower takes 1 argument, got 2 at position 17' }],
  ['match arity', { given: 'contains(Name)', want: "$filter: expected ',' (contains takes 2 arguments), found ')' at position 14" }],
  ['match pattern must be literal', { given: 'contains(Name,Name)', want: '$filter: contains: second argument must be a string literal at position 15' }],
  ['wrong literal type', { given: "year('2024') eq 1", want: '$filter: year: argument of the wrong type at position 6' }],
  ['invalid date', { given: 'CreatedAt eq 2023-02-29', want: "$filter: invalid date '2023-02-29' at position 14" }],
  ['invalid time', { given: 'CreatedAt eq 2024-01-01T25:00:00Z', want: "$filter: invalid date-time '2024-01-01T25:00:00Z' at position 14" }],
  ['null with gt', { given: 'Price gt null', want: '$filter: null can only be compared with eq or ne at position 10' }],
  ['literal vs literal', { given: '1 eq 1', want: '$filter: a comparison needs a column or function on one side at position 1' }],
  ['classic injection', { given: "Name eq 'a' or 1=1", want: "$filter: expected a comparison operator, found '=' at position 17" }],
  ['semicolon', { given: "Price gt 1; DROP TABLE x", want: "$filter: unexpected ';' at position 11" }],
  ['sql comment', { given: 'Price gt 1 --', want: "$filter: unexpected character '-' at position 12" }],
  ['control character', { given: 'Price gt 1\u0000', want: "$filter: unexpected character '\\u0000' at position 11" }],
  ['unicode identifier unknown', { given: 'Ñame eq 1', want: "$filter: unknown column 'Ñame' at position 1" }],
  ['emoji', { given: 'Price gt 🚀', want: "$filter: unexpected character '🚀' at position 10" }],
  ['empty', { given: '   ', want: '$filter: empty expression' }],
  ['empty in list', { given: 'Price in ()', want: "$filter: expected a literal in the in list, found ')' at position 11" }],
  ['null in list', { given: 'Price in (1,null)', want: '$filter: null is not allowed in an in list at position 13' }],
  ['too many in items', { given: `Price in (${Array.from({ length: 201 }, (_, i) => i).join(',')})`, want: '$filter: in list longer than 200 items at position 10' }],
  ['deep nesting', { given: '('.repeat(33) + 'Price gt 1' + ')'.repeat(33), want: '$filter: nesting deeper than 32 at position 33' }],
  ['deep not', { given: 'not '.repeat(40) + 'Active', want: '$filter: nesting deeper than 32 at position 129' }],
  ['huge literal', { given: `Name eq '${'x'.repeat(1001)}'`, want: '$filter: string literal longer than 1000 characters at position 9' }],
  ['huge option', { given: 'Price gt 1 and '.repeat(300) + 'Price gt 1', want: '$filter: longer than 4000 characters' }],
  ['match compared with a number', { given: "contains(Name,'a') eq 1", want: '$filter: contains(...) can only be compared with true or false at position 23' }],
  ['keyword as column', { given: 'and eq 1', want: "$filter: unexpected 'and' at position 1" }],
  ['match as value', { given: "contains(Name,'a') gt 1", want: "$filter: unexpected 'gt' at position 20" }],
];

describe('parseFilter accepts', () => {
  it.each(accept)('%s', (_name, { given, want }) => {
    expect(show(parseFilter(given, columns))).toBe(want);
  });
});

describe('parseFilter rejects with a positioned 400', () => {
  it.each(reject)('%s', (_name, { given, want }) => {
    let err: unknown;
    try {
      parseFilter(given, columns);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ name: 'ODataError', status: 400, message: want });
  });
});
