import { describe, expect, it } from 'vitest';
import { claimNames, looksLikeJwt } from './jwt-verifier.js';

describe('claimNames', () => {
  it.each([
    ['space-separated string', 'read  orders.read', ['read', 'orders.read']],
    ['comma-separated string', 'demo,prod', ['demo', 'prod']],
    ['array', ['read', 7, 'write'], ['read', 'write']],
    ['absent', undefined, []],
    ['object', { read: true }, []],
  ])('%s', (_name, value, want) => {
    expect(claimNames(value)).toEqual(want);
  });
});

describe('looksLikeJwt', () => {
  it('tells a compact JWS from a Wharf token', () => {
    expect(looksLikeJwt('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln')).toBe(true);
    expect(looksLikeJwt(`whf_3f9a1c0b7d2e_${'a'.repeat(43)}`)).toBe(false);
    expect(looksLikeJwt('a.b')).toBe(false);
    expect(looksLikeJwt('a.b.c.d')).toBe(false);
  });
});
