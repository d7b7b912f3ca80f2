import { describe, expect, it } from 'vitest';
import { canonicalJson, compareCodeUnits } from './canonical-json.js';

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

  it('compares without locale rules', () => {
    expect(['b', 'a', 'B', 'ä'].sort(compareCodeUnits)).toEqual(['B', 'a', 'b', 'ä']);
  });
});
