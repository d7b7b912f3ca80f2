import { describe, expect, it } from 'vitest';
import { parseJsonExact } from './exact-json.js';

describe('parseJsonExact', () => {
  it.each([
    ['a bigint past 2^53', '{"a":9007199254740993}', { a: '9007199254740993' }],
    ['a negative one in an array', '[-12345678901234567890, 1]', ['-12345678901234567890', 1]],
    ['a numeric with 18 significant digits', '{"m":123456789012.123456}', { m: '123456789012.123456' }],
    ['digits a double holds', '{"a":9007199254740991,"b":0.1,"c":1000000000000000000,"d":1.5e300}', { a: 9007199254740991, b: 0.1, c: 1e18, d: 1.5e300 }],
    ['long digit runs inside strings, with escaped quotes', '{"s":"12345678901234567890 \\" 98765432109876543210","n":12345678901234567890}', { s: '12345678901234567890 " 98765432109876543210', n: '12345678901234567890' }],
    ['a key of digits', '{"12345678901234567890":12345678901234567890}', { '12345678901234567890': '12345678901234567890' }],
  ])('%s', (_name, text, want) => {
    expect(parseJsonExact(text)).toEqual(want);
  });

  it('not JSON: the error of JSON.parse', () => {
    expect(() => parseJsonExact('{"a":12345678901234567890,}')).toThrow(SyntaxError);
  });
});
