/**
 * Counters in Redis, shared by every gateway instance using the same Redis: INCR + PEXPIRE + PTTL
 * in one Lua script (atomic on the server; Redis's clock decides the window, not the instances').
 * When Redis fails, is down or held after a timeout (redis-client.ts), the hit is counted in a local
 * MemoryCounterStore instead (per-instance limits until Redis answers again) and the failure is
 * remembered on the link for health reporting.
 */
import { MemoryCounterStore } from './counter-store.js';
import type { CounterHit, CounterStore } from './counter-store.js';
import type { RedisLink } from './redis-client.js';

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

  constructor(
    private readonly link: RedisLink,
    private readonly keyPrefix = 'wharf:',
    private readonly now: () => number = Date.now,
  ) {
    this.fallback = new MemoryCounterStore(now);
    link.redis.defineCommand('wharfCounterHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  async hit(key: string, windowMs: number): Promise<CounterHit> {
    if (!this.link.available()) return this.fallback.hitSync(key, windowMs);
    try {
      const [count, ttl] = await (this.link.redis as unknown as WithHitCommand).wharfCounterHit(
        `${this.keyPrefix}rl:${key}`,
        windowMs,
      );
      return { count: Number(count), resetAt: this.now() + Number(ttl) };
    } catch (error) {
      this.link.failed(error);
      return this.fallback.hitSync(key, windowMs);
    }
  }

  /** The Redis connection belongs to whoever opened it; this only drops the fallback counters. */
  async close(): Promise<void> {
    await this.fallback.close();
  }
}
