/**
 * The gateway's Redis link against a real redis-server: opened while Redis is down (no throw, one
 * warning line, connects when Redis starts), subscriptions made again after a Redis restart, and a
 * frozen Redis (SIGSTOP) costing one command timeout, after which callers skip it for a moment.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../test/setup/redis.js';
import { freePort } from '../../test/setup/free-port.js';
import { HOLD_AFTER_TIMEOUT_MS, openRedisLink, type RedisLink } from './redis-client.js';
import { RedisCounterStore } from './redis-counter-store.js';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(probe: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function redisAt(port?: number): Promise<TestRedis> {
  const redis = await startRedis(port === undefined ? {} : { port });
  cleanups.push(() => {
    redis.thaw();
    return redis.stop();
  });
  return redis;
}

async function link(url: string, lines: string[], commandTimeoutMs = 200): Promise<RedisLink> {
  const opened = await openRedisLink({ url, keyPrefix: 't:', commandTimeoutMs, connectTimeoutMs: 1000 }, (level, message) => lines.push(`${level}: ${message}`));
  cleanups.push(() => opened.close());
  return opened;
}

describe('RedisLink', () => {
  it('opens while Redis is down, says so once, and connects when Redis starts', async () => {
    const port = await freePort();
    const lines: string[] = [];
    const opened = await link(`redis://127.0.0.1:${port}`, lines);
    await until(() => lines.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 700)); // several reconnection attempts
    expect(opened.available()).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn: Redis is unreachable \(.+\): rate limits are per instance and the Redis cache is bypassed until it answers$/);
    await redisAt(port);
    await until(() => opened.available());
    expect(lines.at(-1)).toBe('info: Redis is reachable again: shared rate limits and cache resumed');
  }, 30_000);

  it('subscribes again after Redis restarts', async () => {
    let redis = await redisAt();
    const received: string[] = [];
    const opened = await link(redis.url, []);
    opened.subscribe('t:channel', (message) => received.push(message));
    const publisher = await link(redis.url, []);
    await until(() => opened.available() && publisher.available());
    await until(() => {
      void publisher.redis.publish('t:channel', 'one').catch(() => undefined);
      return received.includes('one');
    });
    await redis.stop();
    redis = await redisAt(redis.port);
    await until(() => opened.available() && publisher.available());
    await until(() => {
      void publisher.redis.publish('t:channel', 'two').catch(() => undefined);
      return received.includes('two');
    });
  }, 30_000);

  it('a frozen Redis costs one command timeout; then the counters skip it for a moment', async () => {
    const redis = await redisAt();
    const opened = await link(redis.url, [], 200);
    await until(() => opened.available());
    const counters = new RedisCounterStore(opened, 't:');
    expect((await counters.hit('k', 60_000)).count).toBe(1);
    redis.freeze();
    try {
      let started = performance.now();
      expect((await counters.hit('k', 60_000)).count).toBe(1); // fallback: a fresh per-instance window
      expect(performance.now() - started).toBeLessThan(200 + 500);
      expect(opened.lastError?.message).toMatch(/timed out/i);
      expect(opened.available()).toBe(false);
      started = performance.now();
      expect((await counters.hit('k', 60_000)).count).toBe(2);
      expect(performance.now() - started).toBeLessThan(200); // held: Redis not asked (no command timeout waited)
      await new Promise((resolve) => setTimeout(resolve, HOLD_AFTER_TIMEOUT_MS));
      expect(opened.available()).toBe(true); // one probe per period
    } finally {
      redis.thaw();
    }
  }, 30_000);
});
