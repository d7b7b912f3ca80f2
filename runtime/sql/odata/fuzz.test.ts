/**
 * Property test: whatever the input, the parser either returns an AST or throws an ODataError
 * (a 400) — never another exception (a 500), never hangs. Inputs are random mixes of OData
 * fragments, punctuation, quotes and unicode, from a fixed seed so failures reproduce.
 */
import { describe, it, expect } from 'vitest';
import { ODataError } from './errors.js';
import { parseFilter } from './filter-parser.js';
import { parseQueryOptions } from './options.js';

const FRAGMENTS = [
  'Name', 'Price', 'eq', 'ne', 'gt', 'and', 'or', 'not', 'in', '(', ')', ',', "'", "''", "'x'", '10', '-1', '1.5', '1e9',
  'null', 'true', 'contains(', 'tolower(', 'year(', 'indexof(', '2024-01-01', '2024-01-01T00:00:00Z', '12:00',
  '0f8fad5b-d9cb-469f-a165-70867728950e', "guid'", ' ', '  ', ';', '--', '/*', '*', '$', '%', '\\', '\u0000', 'é', '日本', '🚀', '\uD800',
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const columns = { Name: 'N', Price: 'P' };

describe('parser never fails with anything but a 400', () => {
  it('10,000 random filters', () => {
    const next = rng(42);
    let accepted = 0;
    for (let i = 0; i < 10_000; i++) {
      const n = 1 + Math.floor(next() * 12);
      const text = Array.from({ length: n }, () => FRAGMENTS[Math.floor(next() * FRAGMENTS.length)]).join(next() < 0.5 ? ' ' : '');
      try {
        parseFilter(text, columns);
        accepted++;
      } catch (e) {
        if (!(e instanceof ODataError)) throw new Error(`non-400 failure for ${JSON.stringify(text)}: ${String(e)}`);
        expect(e.message.length).toBeLessThan(300);
      }
    }
    expect(accepted).toBeGreaterThan(10);
  });

  it('random option values', () => {
    const next = rng(7);
    for (let i = 0; i < 3_000; i++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 6) }, () => FRAGMENTS[Math.floor(next() * FRAGMENTS.length)]).join('');
      for (const key of ['select', 'orderby', 'top', 'skip', 'count', 'expand'] as const) {
        try {
          parseQueryOptions({ [key]: text }, { columns, relationships: new Map([['Rel', columns]]) });
        } catch (e) {
          if (!(e instanceof ODataError)) throw new Error(`non-400 failure for ${key}=${JSON.stringify(text)}: ${String(e)}`);
        }
      }
    }
  });
});
