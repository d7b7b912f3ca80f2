import { describe, expect, it } from 'vitest';
import { personalCacheControl } from './personal-answer.js';

describe('personalCacheControl', () => {
  it.each<[string, unknown, string]>([
    ['none', undefined, 'private'],
    ['public with ages', 'public, max-age=600, s-maxage=600', 'private, max-age=600'],
    ['case and spacing', 'Public,S-MaxAge = 5 ,MAX-AGE=1', 'private, MAX-AGE=1'],
    ['already private', 'private, max-age=5', 'private, max-age=5'],
    ['no-store stays', 'public, no-store', 'public, no-store'],
    ['proxy-revalidate dropped, no-cache kept', 'no-cache, proxy-revalidate', 'private, no-cache'],
    ['several header lines', ['public', 'max-age=1'], 'private, max-age=1'],
  ])('%s', (_name, given, want) => {
    expect(personalCacheControl(given)).toBe(want);
  });
});
