import { describe, expect, it } from 'vitest';
import { excerptOf, normalizeQuery, termsPattern } from './search.js';

describe('normalizeQuery', () => {
  it.each<[unknown, string]>([
    [undefined, ''],
    [['a', 'b'], ''],
    ['  two  words ', 'two words'],
    ['a b c d e f g h i j', 'a b c d e f g h'],
    ['x'.repeat(300), 'x'.repeat(128)],
  ])('%j', (q, want) => expect(normalizeQuery(q)).toBe(want));
});

describe('excerptOf', () => {
  it.each([
    ['the needle', ['needle'], '', 'the needle'],
    ['no hit here', ['zzz'], 'fallback text', 'fallback text'],
    [`${'word '.repeat(30)}needle ${'tail '.repeat(40)}`, ['needle'], '', `…${'word '.repeat(11)}needle ${'tail '.repeat(26).trimEnd()}…`],
  ])('%#', (body, terms, fallback, want) => expect(excerptOf(body, terms, fallback)).toBe(want));
});

describe('termsPattern', () => {
  it('matches any term case-insensitively, with regex characters taken literally', () => {
    const pattern = termsPattern(['a.b', 'Needle']);
    expect('xx axb needle'.search(pattern ?? /$^/)).toBe(7);
    expect('a.b'.search(pattern ?? /$^/)).toBe(0);
    expect(termsPattern([])).toBeNull();
  });
});
