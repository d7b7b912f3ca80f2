import { describe, expect, it } from 'vitest';
import { accepts } from './negotiate.js';

describe('accepts', () => {
  it.each([
    [undefined, 'application/json', true],
    ['', 'application/json', true],
    ['application/json', 'application/json; charset=utf-8', true],
    ['Application/JSON', 'application/json', true],
    ['application/*', 'application/json', true],
    ['*/*', 'image/png', true],
    ['text/html', 'application/json', false],
    ['text/*', 'application/json', false],
    ['*/*;q=0', 'application/json', false],
    ['application/json;q=0, */*', 'application/json', false],
    ['application/json;q=0.5, */*;q=0', 'application/json', true],
    ['image/*;q=0, image/png', 'image/png', true],
    ['image/*;q=0', 'image/png', false],
    ['text/html, application/xml;q=0.9', 'application/xml', true],
    ['garbage', 'application/json', false],
  ])('Accept %j for %s -> %s', (header, type, want) => {
    expect(accepts(header, type)).toBe(want);
  });
});
