/**
 * Counters in Redis, shared by every gateway instance using the same Redis: INCR + PEXPIRE + PTTL
 * in one Lua script (atomic on the server; Redis's clock decides the window, not the instances').
 * When Redis fails, the hit is counted in a local MemoryCounterStore instead (per-instance limits
 * until Redis answers again) and the failure is remembered for health/console reporting.
 */
import type { Redis } from 'ioredis';
import { MemoryCounterStore } from './counter-store.js';
import type { CounterHit, CounterStore } from './counter-store.js';

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

interface WithHitCommand {
  wharfCounterHit(key: string, windowMs: number): Promise<[number, number]>;
}

export class RedisCounterStore implements CounterStore {
  readonly kind = 'redis';
  private readonly fallback: MemoryCounterStore;
  lastError: { readonly at: number; readonly message: string } | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'wharf:',
    private readonly now: () => number = Date.now,
  ) {
    this.fallback = new MemoryCounterStore(now);
    redis.defineCommand('wharfCounterHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  async hit(key: string, windowMs: number): Promise<CounterHit> {
    try {
      const [count, ttl] = await (this.redis as unknown as WithHitCommand).wharfCounterHit(
        `${this.keyPrefix}rl:${key}`,
        windowMs,
      );
      return { count: Number(count), resetAt: this.now() + Number(ttl) };
    } catch (error) {
      this.lastError = { at: this.now(), message: (error as Error).message };
      return this.fallback.hit(key, windowMs);
    }
  }

  /** The Redis connection belongs to whoever opened it; this only drops the fallback counters. */
  async close(): Promise<void> {
    await this.fallback.close();
  }
}
