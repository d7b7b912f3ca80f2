import { describe, expect, it } from 'vitest';
import { WharfError } from '../errors/wharf-error.js';
import { parseJsonBody } from './json-body.js';

function failure(text: string, method = 'POST'): string {
  try {
    parseJsonBody(text, method);
  } catch (error) {
    if (error instanceof WharfError) return `${error.status} ${error.message}`;
    throw error;
  }
  return 'parsed';
}

describe('parseJsonBody', () => {
  it.each([
    ['{"a":[1,{"b":null}]}', 'POST', { a: [1, { b: null }] }],
    ['', 'QUERY', undefined],
    [' ', 'DELETE', undefined],
    ['{"constructor":"plain value is fine"}', 'POST', { constructor: 'plain value is fine' }],
  ])('%j (%s) parses', (text, method, want) => {
    expect(parseJsonBody(text, method)).toEqual(want);
  });

  it.each([
    ['{\n  "a": 1,\n  "b": }', "400 Invalid JSON body: Unexpected token '}' at line 3, column 8."],
    ['{"a":\n', '400 Invalid JSON body: Unexpected end of input at line 2, column 1.'],
    ['"abc', '400 Invalid JSON body: Unterminated string at line 1, column 5.'],
    ['', "400 Request body is empty but Content-Type is 'application/json'."],
    ['{"x":{"__proto__":{}}}', "400 Invalid JSON body: the key '__proto__' is not allowed."],
  ])('%j is refused', (text, want) => {
    expect(failure(text)).toBe(want);
  });

  const deep = (n: number, close = true) => '['.repeat(n) + (close ? ']'.repeat(n) : '');
  it.each([
    ['64 levels: allowed', deep(64), 'parsed'],
    ['65 levels: refused', deep(65), '400 Invalid JSON body: JSON is nested deeper than 64 levels.'],
    ['1,000,000 levels, valid', deep(1_000_000), '400 Invalid JSON body: JSON is nested deeper than 64 levels.'],
    ['1,000,000 levels, never closed', deep(1_000_000, false), '400 Invalid JSON body: JSON is nested deeper than 64 levels.'],
    ['objects count too', '{"a":'.repeat(70) + '1' + '}'.repeat(70), '400 Invalid JSON body: JSON is nested deeper than 64 levels.'],
    ['brackets inside strings do not count', JSON.stringify({ s: '[[[['.repeat(100), t: '\\"[' }), 'parsed'],
  ])('nesting: %s', (_name, text, want) => {
    expect(failure(text)).toBe(want);
  });
});
