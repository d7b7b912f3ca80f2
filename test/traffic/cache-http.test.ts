/**
 * Response cache over HTTP: MISS then HIT, a write through one instance invalidating the entries
 * another instance serves (both on one real redis-server), QUERY bodies in the key, ETag and 304.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteTokenStore } from '../../runtime/auth/store/sqlite-store.js';
import { TokenService } from '../../runtime/auth/tokens.js';
import type { CacheSettings } from '../../runtime/cache/cache-settings.js';
import { MemoryCacheStore } from '../../runtime/cache/cache-store.js';
import type { CacheStore } from '../../runtime/cache/cache-store.js';
import { RedisCacheStore } from '../../runtime/cache/redis-cache-store.js';
import { ResponseCache } from '../../runtime/cache/response-cache.js';
import { ClientIpResolver } from '../../runtime/traffic/client-ip.js';
import { connectRedis, RedisLink } from '../../runtime/traffic/redis-client.js';
import { startRedis } from '../setup/redis.js';
import type { TestRedis } from '../setup/redis.js';
import { buildMiniGateway, FakeDatabase } from '../auth/mini-gateway.js';

let dir: string;
let store: SqliteTokenStore;
let redis: TestRedis;
let token: string;
const connections: Redis[] = [];
const apps: FastifyInstance[] = [];
const PRODUCTS = '/api/dev/Inventory/Products';
const SETTINGS: CacheSettings = { enabled: true, provider: 'Redis', defaultDurationSeconds: 300, memoryLimitBytes: 1 << 20 };

beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(path.join(tmpdir(), 'wharf-cache-'));
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

async function redisStore(prefix: string): Promise<RedisCacheStore> {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  return new RedisCacheStore(new RedisLink(connection, () => undefined), prefix);
}

async function gateway(cacheStore: CacheStore, database: FakeDatabase, settings: Partial<CacheSettings> = {}): Promise<FastifyInstance> {
  const app = await buildMiniGateway({
    control: { tokens: new TokenService(store), clientIp: new ClientIpResolver({ knownProxies: [], knownNetworks: [] }), limiter: null },
    cache: new ResponseCache({ ...SETTINGS, ...settings }, cacheStore),
    database,
  });
  apps.push(app);
  return app;
}

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { authorization: `Bearer ${token}`, ...headers } });
const sha = (body: string): string => `"${createHash('sha256').update(body).digest('hex')}"`;

describe('response cache shared through Redis', () => {
  it('MISS, HIT on both instances, and a write on one invalidates the other', async () => {
    const database = new FakeDatabase();
    database.insert('sql:Inventory/Products', 'bolt');
    const a = await gateway(await redisStore('c1:'), database);
    const b = await gateway(await redisStore('c1:'), database);

    const miss = await get(a, PRODUCTS);
    expect([miss.statusCode, miss.headers['x-cache']]).toEqual([200, 'MISS']);
    expect(miss.body).toBe('{"success":true,"count":1,"value":[{"id":1,"name":"bolt"}]}');
    expect(miss.headers['etag']).toBe(sha(miss.body));
    const hitA = await get(a, PRODUCTS);
    const hitB = await get(b, PRODUCTS);
    for (const hit of [hitA, hitB]) {
      expect([hit.statusCode, hit.headers['x-cache'], hit.body]).toEqual([200, 'HIT', miss.body]);
      expect(hit.headers['etag']).toBe(miss.headers['etag']);
      expect(hit.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    expect(database.executions).toBe(1);

    const created = await b.inject({ method: 'POST', url: PRODUCTS, headers: { authorization: `Bearer ${token}` }, payload: { name: 'nut' } });
    expect(created.statusCode).toBe(201);
    const after = await get(a, PRODUCTS);
    expect([after.headers['x-cache'], after.body]).toEqual(['MISS', '{"success":true,"count":2,"value":[{"id":1,"name":"bolt"},{"id":2,"name":"nut"}]}']);
    expect(after.headers['etag']).not.toBe(miss.headers['etag']);
    expect((await get(b, PRODUCTS)).headers['x-cache']).toBe('HIT');
    expect(database.executions).toBe(3);

    // another endpoint's entries survive the write
    await get(a, '/api/dev/Sales/Orders');
    await b.inject({ method: 'DELETE', url: PRODUCTS, headers: { authorization: `Bearer ${token}` } });
    expect((await get(a, '/api/dev/Sales/Orders')).headers['x-cache']).toBe('HIT');
    expect((await get(a, PRODUCTS)).headers['x-cache']).toBe('MISS');
  });

  it('keys QUERY requests by their body, whatever its key order', async () => {
    const database = new FakeDatabase();
    database.insert('sql:Inventory/Products', 'bolt');
    database.insert('sql:Inventory/Products', 'nut');
    const a = await gateway(await redisStore('c2:'), database);
    const query = (payload: unknown) =>
      a.inject({ method: 'QUERY' as 'GET', url: PRODUCTS, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    const bolt = await query({ filter: 'bolt', top: 5 });
    const nut = await query({ filter: 'nut', top: 5 });
    const boltAgain = await query({ top: 5, filter: 'bolt' });
    expect([bolt.headers['x-cache'], nut.headers['x-cache'], boltAgain.headers['x-cache']]).toEqual(['MISS', 'MISS', 'HIT']);
    expect(bolt.json().value).toEqual([{ id: 1, name: 'bolt' }]);
    expect(nut.json().value).toEqual([{ id: 2, name: 'nut' }]);
    expect(boltAgain.body).toBe(bolt.body);
    expect(bolt.headers['etag']).toBeUndefined(); // ETags are for GET
  });
});

describe('ETag and 304', () => {
  it('answers a matching If-None-Match with 304 on a miss and on a hit', async () => {
    const database = new FakeDatabase();
    const a = await gateway(new MemoryCacheStore(1 << 20), database, { provider: 'Memory' });
    const first = await get(a, PRODUCTS);
    const etag = first.headers['etag'] as string;
    expect(etag).toBe(sha(first.body));
    const hit = await get(a, PRODUCTS, { 'if-none-match': etag });
    expect([hit.statusCode, hit.body, hit.headers['etag'], hit.headers['x-cache']]).toEqual([304, '', etag, 'HIT']);
    expect(hit.headers['content-type']).toBeUndefined();
    const other = await get(a, PRODUCTS, { 'if-none-match': '"nope"' });
    expect([other.statusCode, other.body]).toEqual([200, first.body]);

    const uncached = await get(a, '/api/dev/Accounts'); // cacheDurationSeconds 0: never cached
    expect([uncached.statusCode, uncached.headers['x-cache']]).toEqual([200, undefined]);
    const notModified = await get(a, '/api/dev/Accounts', { 'if-none-match': uncached.headers['etag'] as string });
    expect([notModified.statusCode, notModified.body]).toEqual([304, '']);
    expect(database.executions).toBe(3);
  });

  it('keeps ETags and drops X-Cache when caching is disabled', async () => {
    const database = new FakeDatabase();
    const a = await gateway(new MemoryCacheStore(1 << 20), database, { enabled: false });
    for (let i = 0; i < 2; i += 1) {
      const response = await get(a, PRODUCTS);
      expect([response.headers['x-cache'], response.headers['etag']]).toEqual([undefined, sha(response.body)]);
    }
    expect(database.executions).toBe(2);
  });
});
