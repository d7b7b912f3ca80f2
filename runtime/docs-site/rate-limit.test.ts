import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.js';

describe('fixed-window rate limiter', () => {
  it('allows the limit per key per window, then answers seconds until reset', () => {
    let now = 120_000 + 45_000;
    const limiter = createRateLimiter(3, 60_000, () => now);
    expect([1, 2, 3].map(() => limiter.take('a'))).toEqual([null, null, null]);
    expect(limiter.take('a')).toBe(15);
    expect(limiter.take('b')).toBeNull();
    now = 180_000;
    expect(limiter.take('a')).toBeNull();
  });
});
