import { describe, expect, it } from 'vitest';
import { etagMatches, pagePathOfRequest } from './rendered-site.js';

describe('pagePathOfRequest', () => {
  it.each([
    ['', 'index'],
    ['/', 'index'],
    ['Guide/Intro/', 'guide/intro'],
    ['guide/intro.md', 'guide/intro'],
    ['guide/intro.HTML', 'guide/intro'],
  ])('%j -> %s', (raw, want) => expect(pagePathOfRequest(raw, 'index')).toBe(want));
});

describe('etagMatches', () => {
  it.each<[string | undefined, boolean]>([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abcd"', false],
  ])('%j', (header, want) => expect(etagMatches(header, '"abc"')).toBe(want));
});
