import { describe, expect, it } from 'vitest';
import { RowJson } from './row-json.js';

/** A seeded generator (mulberry32): the same rows on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ['', 'plain', 'with "quote"', 'back\\slash', 'tab\tnew\nline', '\u0000nul', 'é ü 日本', '😀 pair', 'lone \ud800 high', 'lone \udc00 low', '\u2028\u2029', '</script>'];
const NUMBERS = [0, -0, 1, -1, 3.14, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity, 123.45];
const OTHERS: unknown[] = [null, true, false, { a: [1, 'x'] }, [1, 2], new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), Buffer.from('ab')];

function valueOf(next: () => number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const kind = next();
  return kind < 0.4 ? pick(STRINGS) : kind < 0.8 ? pick(NUMBERS) : pick(OTHERS);
}

describe('RowJson', () => {
  it('writes exactly what JSON.stringify writes, for 2,000 generated results', () => {
    const next = random(42);
    const columns = ['Id', 'Name', 'with "quote"', 'é', '1', 'toJSON', 'a\\b'];
    for (let n = 0; n < 2000; n++) {
      const json = new RowJson();
      const keys = columns.filter(() => next() < 0.7);
      const rows = Array.from({ length: Math.floor(next() * 5) }, () => Object.fromEntries(keys.map((k) => [k, valueOf(next)])));
      expect(json.rows(rows)).toBe(JSON.stringify(rows));
      if (rows[0]) expect(json.row(rows[0])).toBe(JSON.stringify(rows[0]));
    }
  });

  it('falls back to JSON.stringify when a row has other columns or an undefined value', () => {
    const json = new RowJson();
    const same = [{ a: 1, b: 'x' }, { a: 2, b: 'y' }];
    expect(json.rows(same)).toBe('[{"a":1,"b":"x"},{"a":2,"b":"y"}]');
    const other = [{ a: 1, b: 'x' }, { b: 'y', a: 2 }, { a: 3 }, { a: 4, b: 'z', c: true }];
    expect(json.rows(other)).toBe(JSON.stringify(other));
    const missing = [{ a: 1, b: undefined }];
    expect(json.rows(missing)).toBe('[{"a":1}]');
    expect(json.row({ a: undefined, b: 2 })).toBe('{"b":2}');
  });

  it('compiles again when a result has other columns, and throws for a BigInt like JSON.stringify', () => {
    const json = new RowJson();
    expect(json.rows([{ a: 1 }])).toBe('[{"a":1}]');
    expect(json.rows([{ z: 'q' }])).toBe('[{"z":"q"}]');
    expect(json.rows([])).toBe('[]');
    expect(json.row({})).toBe('{}');
    expect(() => json.rows([{ n: 1n }])).toThrow(TypeError);
  });

  it('keeps column names that look like code as data', () => {
    const json = new RowJson();
    const rows = [{ "'+process.exit(1)+'": 1, '`${x}`': 2, '\u2028': 3, '"]);throw 1;//': 4 }];
    expect(json.rows(rows)).toBe(JSON.stringify(rows));
  });
});
