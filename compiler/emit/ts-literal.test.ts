import { describe, expect, it } from 'vitest';
import { printLiteral, quote } from './ts-literal.js';

const print = (value: unknown): string => printLiteral(value);

describe('printLiteral', () => {
  const cases: [string, { given: unknown; want: string }][] = [
    ['scalars', { given: [1, true, null, 'a'], want: "[1, true, null, 'a']" }],
    ['empty containers', { given: { a: [], b: {} }, want: '{\n  a: [],\n  b: {},\n}' }],
    ['keys that are not identifiers are quoted', { given: { 'a-b': 1, $ok: 2, '1x': 3 }, want: "{\n  'a-b': 1,\n  $ok: 2,\n  '1x': 3,\n}" }],
    ['nested objects indent by two', { given: { a: { b: [{ c: 1 }] } }, want: '{\n  a: {\n    b: [\n      {\n        c: 1,\n      },\n    ],\n  },\n}' }],
    ['long scalar arrays break', { given: ['x'.repeat(60), 'y'.repeat(60)], want: `[\n  '${'x'.repeat(60)}',\n  '${'y'.repeat(60)}',\n]` }],
    ['undefined members are left out', { given: { a: undefined, b: 1 }, want: '{\n  b: 1,\n}' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => expect(print(given)).toBe(want));

  it('refuses values JSON cannot carry', () => {
    expect(() => print({ n: Number.NaN })).toThrow();
  });
});

describe('quote', () => {
  const cases: [string, string][] = [
    ["it's", "'it\\'s'"],
    ['say "hi"', `'say "hi"'`],
    ['back\\slash\nnew', "'back\\\\slash\\nnew'"],
    ['\u2028', "'\u2028'"],
  ];
  it.each(cases)('%j', (given, want) => {
    expect(quote(given)).toBe(want);
    expect(new Function(`return ${quote(given)};`)()).toBe(given);
  });
});
