/**
 * Rate limits over HTTP: headers and 429 literally, IP budget before authentication, forwarded
 * addresses, and two gateway instances sharing one budget in a real redis-server, exactly at the
 * boundary under concurrency.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteTokenStore } from '../../runtime/auth/store/sqlite-store.js';
import { TokenService } from '../../runtime/auth/tokens.js';
import { ClientIpResolver } from '../../runtime/traffic/client-ip.js';
import { MemoryCounterStore } from '../../runtime/traffic/counter-store.js';
import type { CounterStore } from '../../runtime/traffic/counter-store.js';
import { RateLimiter } from '../../runtime/traffic/rate-limiter.js';
import type { RateLimitSettings } from '../../runtime/traffic/rate-limiter.js';
import { connectRedis, RedisLink } from '../../runtime/traffic/redis-client.js';
import { RedisCounterStore } from '../../runtime/traffic/redis-counter-store.js';
import { RedisCacheStore } from '../../runtime/cache/redis-cache-store.js';
import { ResponseCache } from '../../runtime/cache/response-cache.js';
import { startRedis } from '../setup/redis.js';
import type { TestRedis } from '../setup/redis.js';
import { buildMiniGateway } from '../auth/mini-gateway.js';

let dir: string;
let store: SqliteTokenStore;
let redis: TestRedis;
let token: string;
const connections: Redis[] = [];
const apps: FastifyInstance[] = [];
const URL = '/api/dev/Inventory/Products';

beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(path.join(tmpdir(), 'wharf-rate-'));
  store = new SqliteTokenStore(path.join(dir, 'auth.db'));
  token = (await new TokenService(store).create({ username: 'alice' })).token;
});

afterAll(async () => {
  for (const app of apps) await app.close();
  for (const connection of connections) connection.disconnect();
  await store?.close();
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const SETTINGS: RateLimitSettings = { enabled: true, ipLimit: 100, ipWindowSeconds: 60, tokenLimit: 100, tokenWindowSeconds: 60 };

async function gateway(
  settings: Partial<RateLimitSettings>,
  counters: CounterStore,
  now: () => number = Date.now,
  knownProxies: string[] = [],
): Promise<FastifyInstance> {
  const app = await buildMiniGateway({
    control: {
      tokens: new TokenService(store),
      clientIp: new ClientIpResolver({ knownProxies, knownNetworks: [] }),
      limiter: new RateLimiter({ ...SETTINGS, ...settings }, counters, now),
    },
  });
  apps.push(app);
  return app;
}

async function redisCounters(prefix: string): Promise<RedisCounterStore> {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  return new RedisCounterStore(new RedisLink(connection, () => undefined), prefix);
}

const auth = (): Record<string, string> => ({ authorization: `Bearer ${token}` });

describe('rate limit headers and 429', () => {
  it('every response carries the budget; the excess gets 429 with Retry-After', async () => {
    const clock = 1_800_000_000_000;
    const now = (): number => clock;
    const app = await gateway({ tokenLimit: 2 }, new MemoryCounterStore(now), now);
    const reset = String((clock + 60_000) / 1000);
    const first = await app.inject({ url: URL, headers: auth() });
    expect(first.statusCode).toBe(200);
    expect([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining'], first.headers['x-ratelimit-reset']]).toEqual(['2', '1', reset]);
    expect((await app.inject({ url: URL, headers: auth() })).headers['x-ratelimit-remaining']).toBe('0');
    const refused = await app.inject({ url: URL, headers: auth() });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe('{"success":false,"error":"Too many requests. Retry after 60 seconds."}');
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect({
      limit: refused.headers['x-ratelimit-limit'],
      remaining: refused.headers['x-ratelimit-remaining'],
      reset: refused.headers['x-ratelimit-reset'],
      retryAfter: refused.headers['retry-after'],
      resource: refused.headers['x-ratelimit-resource'],
    }).toEqual({ limit: '2', remaining: '0', reset, retryAfter: '60', resource: 'token' });
  });

  it('counts an address before authentication: a flood without a token gets 429, not 401', async () => {
    const app = await gateway({ ipLimit: 2 }, new MemoryCounterStore());
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await app.inject({ url: URL, remoteAddress: '198.51.100.7' })).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
    const refused = await app.inject({ url: URL, remoteAddress: '198.51.100.7', headers: auth() });
    expect([refused.statusCode, refused.headers['x-ratelimit-resource']]).toEqual([429, 'ip']);
    expect((await app.inject({ url: URL, remoteAddress: '198.51.100.8', headers: auth() })).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from unknown peers, honours it from known proxies', async () => {
    const app = await gateway({ ipLimit: 1 }, new MemoryCounterStore(), Date.now, ['10.0.0.5']);
    const fromClient = (forwarded: string) =>
      app.inject({ url: URL, remoteAddress: '203.0.113.1', headers: { ...auth(), 'x-forwarded-for': forwarded } });
    expect((await fromClient('1.1.1.1')).statusCode).toBe(200);
    expect((await fromClient('2.2.2.2')).statusCode).toBe(429); // a forged header does not buy a new budget
    const viaProxy = (forwarded: string) =>
      app.inject({ url: URL, remoteAddress: '10.0.0.5', headers: { ...auth(), 'x-forwarded-for': forwarded } });
    expect((await viaProxy('1.1.1.1')).statusCode).toBe(200);
    expect((await viaProxy('2.2.2.2')).statusCode).toBe(200);
    expect((await viaProxy('1.1.1.1')).statusCode).toBe(429);
  });

  it('no headers and no limits when RateLimiting:Enabled is false', async () => {
    const app = await gateway({ enabled: false, tokenLimit: 1 }, new MemoryCounterStore());
    for (let i = 0; i < 3; i += 1) {
      const response = await app.inject({ url: URL, headers: auth() });
      expect([response.statusCode, response.headers['x-ratelimit-limit']]).toEqual([200, undefined]);
    }
  });
});

describe('rate limits shared through Redis', () => {
  it('two instances share one budget', async () => {
    const a = await gateway({ tokenLimit: 5 }, await redisCounters('shared1:'));
    const b = await gateway({ tokenLimit: 5 }, await redisCounters('shared1:'));
    const remaining = [];
    for (const app of [a, a, a, b, b, a]) {
      const response = await app.inject({ url: URL, headers: auth() });
      remaining.push(`${response.statusCode}:${response.headers['x-ratelimit-remaining']}`);
    }
    expect(remaining).toEqual(['200:4', '200:3', '200:2', '200:1', '200:0', '429:0']);
  });

  it('concurrent requests across two instances at the boundary count exactly', async () => {
    const limit = 50;
    const a = await gateway({ tokenLimit: limit, ipLimit: 1000 }, await redisCounters('shared2:'));
    const b = await gateway({ tokenLimit: limit, ipLimit: 1000 }, await redisCounters('shared2:'));
    const responses = await Promise.all(
      Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? a : b).inject({ url: URL, headers: auth() })),
    );
    const ok = responses.filter((response) => response.statusCode === 200);
    expect(ok).toHaveLength(limit);
    expect(responses.filter((response) => response.statusCode === 429)).toHaveLength(120 - limit);
    // each remaining value handed out exactly once: no two requests saw the same count
    const remaining = ok.map((response) => Number(response.headers['x-ratelimit-remaining'])).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: limit }, (_, i) => i));
  });

  it('keeps counting per instance while Redis is down, and the cache serves uncached', async () => {
    const own = await startRedis();
    const connection = await connectRedis(own.url);
    connections.push(connection);
    const link = new RedisLink(connection, () => undefined);
    const counters = new RedisCounterStore(link, 'outage:');
    const cacheStore = new RedisCacheStore(link, 'outage:');
    expect((await counters.hit('ip:x', 60_000)).count).toBe(1);
    await own.stop();
    const during = [];
    for (let i = 0; i < 3; i += 1) during.push((await counters.hit('ip:x', 60_000)).count);
    expect(during).toEqual([1, 2, 3]); // fallback counters, fresh window
    expect(link.lastError).not.toBeNull();
    expect(await cacheStore.get('sql:A', 'k')).toEqual({ version: 'unavailable', entry: null });
    await cacheStore.set('sql:A', 'unavailable', 'k', { status: 200, headers: {}, body: Buffer.from('x'), etag: '"x"' }, 1000);
    await expect(cacheStore.bump(['sql:A'])).rejects.toThrow();
    const reported: string[] = [];
    const cache = new ResponseCache(
      { enabled: true, provider: 'Redis', defaultDurationSeconds: 300, memoryLimitBytes: 1 << 20 },
      cacheStore,
      (message) => reported.push(message),
    );
    await cache.invalidate({ id: 'sql:A', kind: 'sql' }); // a write must not fail because Redis is down
    expect(reported).toEqual(['Cache invalidation for sql:A failed; entries expire by their TTL']);
  });
});
