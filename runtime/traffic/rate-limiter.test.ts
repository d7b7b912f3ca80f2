import { describe, expect, it } from 'vitest';
import { MemoryCounterStore } from './counter-store.js';
import { RateLimiter, rateLimitHeaders, tighter } from './rate-limiter.js';

const SETTINGS = { enabled: true, ipLimit: 3, ipWindowSeconds: 60, tokenLimit: 5, tokenWindowSeconds: 10 };

describe('RateLimiter (memory)', () => {
  it('counts a fixed window per resource and id, then starts over', async () => {
    let clock = 1_000_000;
    const now = (): number => clock;
    const limiter = new RateLimiter(SETTINGS, new MemoryCounterStore(now), now);
    const seen = [];
    for (let i = 0; i < 4; i += 1) seen.push(await limiter.check('ip', '1.2.3.4'));
    expect(seen.map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(seen[3]).toEqual({ resource: 'ip', allowed: false, limit: 3, remaining: 0, resetAt: 1_060_000 });
    expect((await limiter.check('ip', '5.6.7.8')).remaining).toBe(2); // other address, own budget
    expect((await limiter.check('token', '1.2.3.4')).remaining).toBe(4); // other resource, own budget

    clock += 59_999;
    expect((await limiter.check('ip', '1.2.3.4')).allowed).toBe(false);
    expect(limiter.retryAfterSeconds(seen[3]!)).toBe(1);
    clock += 1;
    expect(await limiter.check('ip', '1.2.3.4')).toEqual({ resource: 'ip', allowed: true, limit: 3, remaining: 2, resetAt: 1_120_000 });
  });

  it('lets exactly the limit through when requests arrive concurrently', async () => {
    const limiter = new RateLimiter({ ...SETTINGS, tokenLimit: 50 }, new MemoryCounterStore());
    const decisions = await Promise.all(Array.from({ length: 80 }, () => limiter.check('token', '7')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
  });

  it('builds the 429 with Retry-After and the budget headers', async () => {
    let clock = 10_000;
    const now = (): number => clock;
    const limiter = new RateLimiter({ ...SETTINGS, ipLimit: 1 }, new MemoryCounterStore(now), now);
    await limiter.check('ip', 'a');
    const refused = await limiter.check('ip', 'a');
    clock += 30_500;
    const error = limiter.exceeded(refused);
    expect([error.status, error.message]).toEqual([429, 'Too many requests. Retry after 30 seconds.']);
    expect(error.headers).toEqual({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '70',
      'Retry-After': '30',
      'X-RateLimit-Resource': 'ip',
    });
  });

  it('reports the tighter budget', () => {
    const ip = { resource: 'ip' as const, allowed: true, limit: 100, remaining: 90, resetAt: 1 };
    const token = { resource: 'token' as const, allowed: true, limit: 10, remaining: 3, resetAt: 2 };
    expect(tighter(ip, token)).toBe(token);
    expect(tighter(token, ip)).toBe(token);
    expect(tighter({ ...ip, allowed: false, remaining: 0 }, token)?.resource).toBe('ip');
    expect(tighter(null, ip)).toBe(ip);
    expect(rateLimitHeaders(token)).toEqual({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '3', 'X-RateLimit-Reset': '1' });
  });

  it('bounds the number of remembered windows', async () => {
    const store = new MemoryCounterStore(Date.now, 100);
    for (let i = 0; i < 250; i += 1) await store.hit(`k${i}`, 60_000);
    expect(store.size).toBeLessThanOrEqual(100);
  });
});
