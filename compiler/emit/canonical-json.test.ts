import { describe, expect, it } from 'vitest';
import { canonicalJson, compareCodeUnits, sortKeys } from './canonical-json.js';
import { buildOpenApi } from './openapi/document.js';
import { goldenModels } from './__golden__/models.js';

describe('canonicalJson', () => {
  const cases: [string, { given: unknown; want: string }][] = [
    ['sorts keys recursively', { given: { b: 1, a: { d: 2, c: [{ z: 1, y: 2 }] } }, want: '{\n  "a": {\n    "c": [\n      {\n        "y": 2,\n        "z": 1\n      }\n    ],\n    "d": 2\n  },\n  "b": 1\n}\n' }],
    ['keeps array order', { given: [3, 1, 2], want: '[\n  3,\n  1,\n  2\n]\n' }],
    ['sorts by code unit, upper case first', { given: { a: 1, B: 2, _: 3 }, want: '{\n  "B": 2,\n  "_": 3,\n  "a": 1\n}\n' }],
    ['drops undefined members', { given: { a: undefined, b: null }, want: '{\n  "b": null\n}\n' }],
    ['scalar', { given: 'x', want: '"x"\n' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(canonicalJson(given)).toBe(want);
  });

  it('rejects non-plain objects instead of serializing them lossily', () => {
    expect(() => canonicalJson({ when: new Date(0) })).toThrow(/Date/);
  });

  it('writes the very bytes of JSON.stringify over the sorted copy, whatever the value', () => {
    const reference = (value: unknown): string => `${JSON.stringify(sortKeys(value), null, 2)}\n`;
    const values: unknown[] = [
      { 404: 'a', 200: 'b', b: 1, '4294967295': 'not an index', '4294967294': 'index', '01': 'no', '-1': 'no', '1.5': 'no', A: 2, '': 3 },
      { responses: { 503: {}, 200: { description: 'x' }, default: [] }, empty: {}, none: [], nested: [[], [{}], [[1]]] },
      { fn: () => 1, sym: Symbol('s'), list: [undefined, () => 1, Symbol('s'), null, Number.NaN, -0, 1e21, Infinity] },
      { text: 'quote " backslash \\ newline \n tab \t \u2028 \ud800 ä 😀', 'key "quoted"\n': true },
      Object.assign(Object.create(null), { z: false, a: true }),
      [],
      {},
      'x',
      12.5,
      null,
      undefined,
      { wrapped: { toJSON: () => ({ b: 1, a: [1, 2] }) } },
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
      buildOpenApi(goldenModels),
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(reference(value));
  });

  it('compares without locale rules', () => {
    expect(['b', 'a', 'B', 'ä'].sort(compareCodeUnits)).toEqual(['B', 'a', 'b', 'ä']);
  });
});
