import { describe, expect, it } from 'vitest';
import { parseFilter } from './filter-parser.js';
import { checkFilterTypes, type ValueKind } from './type-check.js';

const columns = { Name: 'Name', Price: 'Price', Stock: 'Stock', OrderDate: 'order_date', CreatedAt: 'CreatedAt', Opens: 'Opens', Active: 'Active', Ref: 'Ref', Notes: 'Notes' };
const kinds = new Map<string, ValueKind>([
  ['Name', 'string'], ['Price', 'number'], ['Stock', 'number'], ['order_date', 'date'], ['CreatedAt', 'datetime'],
  ['Opens', 'time'], ['Active', 'boolean'], ['Ref', 'guid'],
  // Notes: kind unknown (not in the catalogue): never checked
]);

function verdict(filter: string): string {
  try {
    checkFilterTypes(parseFilter(filter, columns), kinds);
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('$filter type rules', () => {
  it.each([
    ['string eq string', "Name eq 'x'", 'ok'],
    ['number gt number', 'Price gt 10.5', 'ok'],
    ['number in numbers', 'Stock in (1,2,3)', 'ok'],
    ['date eq date', 'OrderDate eq 2024-01-02', 'ok'],
    ['date compared with a date-time', 'OrderDate ge 2024-01-02T00:00:00Z', 'ok'],
    ['datetime eq datetime', 'CreatedAt lt 2024-01-02T00:00:00Z', 'ok'],
    ['time eq time', 'Opens eq 08:30', 'ok'],
    ['bare boolean column', 'Active', 'ok'],
    ['not on a boolean column', 'not Active', 'ok'],
    ['guid eq guid literal', 'Ref eq 01234567-89ab-cdef-0123-456789abcdef', 'ok'],
    ['guid eq quoted guid', "Ref eq '01234567-89ab-cdef-0123-456789abcdef'", 'ok'],
    ['null on any column', 'OrderDate eq null and Name ne null', 'ok'],
    ['functions with the right kinds', "year(OrderDate) eq 2024 and length(Name) gt 3 and hour(CreatedAt) lt 12 and tolower(Name) eq 'a'", 'ok'],
    ['unknown kind is not checked', 'Notes eq 5', 'ok'],
    ['bare date column', 'OrderDate', "$filter: 'OrderDate' is a date and cannot be compared with a boolean at position 1"],
    ['not on a date column', 'not OrderDate', "$filter: 'OrderDate' is a date and cannot be compared with a boolean at position 5"],
    ['date lt true', 'OrderDate lt true', "$filter: 'OrderDate' is a date and cannot be compared with a boolean at position 1"],
    ['datetime eq number', 'CreatedAt eq 5', "$filter: 'CreatedAt' is a date-time and cannot be compared with a number at position 1"],
    ['string eq boolean', 'Name eq true', "$filter: 'Name' is a string and cannot be compared with a boolean at position 1"],
    ['string eq time', 'Name eq 08:30', "$filter: 'Name' is a string and cannot be compared with a time of day at position 1"],
    ['literal on the left', "5 eq Name", "$filter: 'Name' is a string and cannot be compared with a number at position 6"],
    ['number in strings', "Stock in ('a')", "$filter: 'Stock' is a number and cannot be compared with a string at position 1"],
    ['guid eq other string', "Ref eq 'abc'", "$filter: 'Ref' is a GUID and cannot be compared with a string at position 1"],
    ['contains on a number', "contains(Price,'1')", "$filter: contains(...) needs a string, but 'Price' is a number at position 10"],
    ['year of a string', 'year(Name) eq 2024', "$filter: year(...) needs a date or a date-time, but 'Name' is a string at position 6"],
    ['length of a date', 'length(OrderDate) gt 1', "$filter: length(...) needs a string, but 'OrderDate' is a date at position 8"],
    ['function of a literal', 'month(2024-01-01T00:00:00Z) lt Stock', '$filter: month(...) needs a column or a function of one as its first argument, not a literal at position 7'],
    ['function of a literal, nested', 'day(date(2024-01-01T00:00:00Z)) eq 1', '$filter: date(...) needs a column or a function of one as its first argument, not a literal at position 10'],
    ['match on a literal', "endswith('abc','c')", '$filter: endswith(...) needs a column or a function of one as its first argument, not a literal at position 10'],
    ['indexof: the search text may be a literal', "indexof(Name,'x') eq 1", 'ok'],
    ['literal kinds are checked even for unknown columns', 'year(Notes) eq 2024 and time(Notes) eq 08:30', 'ok'],
    ['function result compared wrongly', "length(Name) eq 'x'", "$filter: length(...) is a number and cannot be compared with a string at position 1"],
  ])('%s', (_n, filter, want) => {
    expect(verdict(filter)).toBe(want);
  });
});
