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
    ['/API/demo/FILES/Documents/Invoices', '/api/demo/files/Documents/Invoices'],
    ['/api/demo/Files?x=1', '/api/demo/files?x=1'],
    ['/api/demo/Filesystem/x', '/api/demo/Filesystem/x'],
  ])('%s -> %s', (given, want) => {
    expect(canonicalApiPrefix(given)).toBe(want);
  });
});
