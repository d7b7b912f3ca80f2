/**
 * The Redis connection shared by rate limits and the response cache (`Redis:Url`, e.g.
 * `redis://127.0.0.1:6379/0`; secret when it carries a password). Commands fail fast while the
 * connection is down (no offline queue), so a Redis outage degrades to per-instance behaviour
 * instead of stalling requests.
 */
import type { Redis } from 'ioredis';
import type { ConfigSource } from '../settings/config-source.js';

export interface RedisSettings {
  /** null = Redis not configured. */
  readonly url: string | null;
  /** Prefix of every key Wharf writes, so several deployments can share one Redis. */
  readonly keyPrefix: string;
}

export function readRedisSettings(source: ConfigSource): RedisSettings {
  const url = source.string('Redis:Url').trim();
  return { url: url === '' ? null : url, keyPrefix: source.string('Redis:KeyPrefix') };
}

/** Connects and waits until the server answers (rejects after `timeoutMs`). */
export async function connectRedis(url: string, timeoutMs = 5000): Promise<Redis> {
  // imported here, not at start: a gateway without Redis never loads ioredis
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: timeoutMs,
  });
  await redis.connect();
  return redis;
}
