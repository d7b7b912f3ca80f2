import { describe, expect, it } from 'vitest';
import { closest } from './suggest.js';

const SQL_PROPS = ['AllowedColumns', 'CacheDurationSeconds', 'DatabaseObjectName', 'Enabled', 'PrimaryKey'];

describe('closest', () => {
  const cases: Array<[string, { given: string; want: string | null }]> = [
    ['case only', { given: 'enabled', want: 'Enabled' }],
    ['one typo', { given: 'Enabeld', want: 'Enabled' }],
    ['every word of a longer name', { given: 'CacheSeconds', want: 'CacheDurationSeconds' }],
    ['one word is not enough', { given: 'Cache', want: null }],
    ['nothing near', { given: 'Colour', want: null }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(closest(given, SQL_PROPS)).toBe(want);
  });
});
