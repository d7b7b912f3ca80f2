import { describe, expect, it } from 'vitest';
import { buildSearchIndex, createSearchEngine, markedExcerpt, queryTerms, termsPattern } from '../contract/docs-search.js';
import { parseLimit } from './search.js';

const WEIGHTS = { title: 10, description: 5, keywords: 4, headings: 3, body: 1 };
const doc = (path: string, fields: Partial<Record<'title' | 'description' | 'keywords' | 'headings' | 'body', string>>) => ({
  path,
  title: '',
  description: '',
  keywords: '',
  headings: '',
  body: '',
  ...fields,
});

describe('queryTerms', () => {
  it.each<[unknown, string[]]>([
    [undefined, []],
    [['a', 'b'], []],
    ['x', []],
    ['  Two  words two ', ['two', 'words']],
    ['a b c d e f g h i j', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']],
    ['x'.repeat(300), ['x'.repeat(128)]],
    ['C#, (fastify)!', ['c', 'fastify']],
  ])('%j', (q, want) => expect(queryTerms(q)).toEqual(want));
});

describe('parseLimit', () => {
  it.each<[unknown, number | null]>([
    [undefined, 20],
    ['5', 5],
    ['100', 100],
    ['101', 100],
    ['0', null],
    ['-1', null],
    ['2.5', null],
    ['ten', null],
  ])('%j', (raw, want) => expect(parseLimit(raw)).toBe(want));
});

describe('markedExcerpt', () => {
  it.each([
    ['the needle', ['needle'], '', 'the <mark>needle</mark>'],
    ['no hit here', ['zzz'], 'fallback <text>', 'fallback &lt;text&gt;'],
    ['a <b> Needle needles', ['needle'], '', 'a &lt;b&gt; <mark>Needle</mark> needles'],
    [`${'word '.repeat(30)}needle ${'tail '.repeat(40)}`, ['needle'], '', `…${'word '.repeat(11)}<mark>needle</mark> ${'tail '.repeat(26).trimEnd()}…`],
  ])('%#', (body, terms, fallback, want) => expect(markedExcerpt(body, termsPattern(terms), fallback)).toBe(want));
});

describe('search engine', () => {
  const engine = createSearchEngine(
    buildSearchIndex(
      [
        doc('b', { title: 'Kestrel', body: 'kestrel kestrel' }),
        doc('a', { body: 'A kestrel and a falcon.' }),
        doc('c', { headings: 'Falcon', description: 'kestrel' }),
        doc('d', { body: 'gateway gateways' }),
      ],
      WEIGHTS,
    ),
  );
  it('sums field weights per term and page, ties by path, and counts all hits', () => {
    const answer = engine.search('kestrel falcon');
    expect(answer.results.map((r) => r.path)).toEqual(['/b', '/c', '/a']);
    expect(answer.total).toBe(3);
    expect(engine.search('kestrel falcon', 1)).toEqual({ total: 3, results: [{ path: '/b', title: 'Kestrel', description: '', excerpt: '<mark>kestrel</mark> <mark>kestrel</mark>' }] });
  });
  it('falls back to close spellings and prefixes at half score', () => {
    expect(engine.search('kestral').results.map((r) => r.path)).toEqual(['/b', '/c', '/a']);
    expect(engine.search('gatew').results.map((r) => r.path)).toEqual(['/d']);
    expect(engine.search('zzzz')).toEqual({ total: 0, results: [] });
  });
});
