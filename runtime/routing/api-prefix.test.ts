import { describe, expect, it } from 'vitest';
import { canonicalApiPrefix } from './api-prefix.js';

describe('canonicalApiPrefix', () => {
  it.each([
    ['/api/demo/Products', '/api/demo/Products'],
    ['/API/demo/Products', '/api/demo/Products'],
    ['/Api', '/api'],
    ['/aPi?x=1', '/api?x=1'],
    ['/APIs/demo', '/APIs/demo'],
    ['/Health/live', '/Health/live'],
    ['/', '/'],
    ['/ap', '/ap'],
  ])('%s -> %s', (given, want) => {
    expect(canonicalApiPrefix(given)).toBe(want);
  });
});
