import { describe, it, expect } from 'vitest';
import { keysetUrl, optionPrefix, readUrl } from './links.js';

describe('readUrl (nextLink / Content-Location)', () => {
  it.each([
    ['only paging', { raw: {}, top: 100, skip: 100, extra: {} }, '/api/demo/P?$top=100&$skip=100'],
    ['all options in a fixed order, encoded', { raw: { skip: '5', top: '2', count: 'true', expand: 'Category', select: 'A,B', orderby: 'A desc', filter: "Name eq 'a&b=c'" }, top: 2, skip: 7, extra: {} },
      "/api/demo/P?$filter=Name%20eq%20'a%26b%3Dc'&$orderby=A%20desc&$select=A,B&$expand=Category&$count=true&$top=2&$skip=7"],
    ['function parameters kept, $ options replaced', { raw: { top: '2' }, top: 2, skip: 2, extra: { $top: '2', MinPrice: '4 00', multi: ['a', 'b'] } },
      '/api/demo/P?$top=2&$skip=2&MinPrice=4%2000&multi=a&multi=b'],
  ] as const)('%s', (_n, g, want) => {
    expect(readUrl('/api/demo/P', optionPrefix(g.raw), g.top, g.skip, g.extra)).toBe(want);
  });
});

describe('keysetUrl', () => {
  it('puts $skiptoken where $skip would be, the options before it and function parameters after', () => {
    expect(keysetUrl('/api/demo/Inventory/ProductPages', '$orderby=Price%20desc&', 2, 'abc_-1', { CategoryId: '3', $top: '2' }))
      .toBe('/api/demo/Inventory/ProductPages?$orderby=Price%20desc&$top=2&$skiptoken=abc_-1&CategoryId=3');
  });
});
