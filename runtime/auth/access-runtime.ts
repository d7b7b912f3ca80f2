/**
 * Builds everything access control, rate limiting and caching need from the settings, in one
 * call for the server: token store + service, client IP resolver, rate limiter, response cache,
 * and (with Redis) shared counters, shared cache and the revocation bus. close() releases it all.
 *
 * Settings read here (defaults in brackets):
 *   Auth:Store:Provider [Sqlite] | Auth:Store:Path [<data>/auth.db] | Auth:Store:ConnectionString
 *   Auth:VerificationCacheSeconds [5]
 *   Auth:Jwt:* [off]   (JWTs of an OpenID Connect provider: jwt/jwt-settings.ts)
 *   RateLimiting:Enabled [true] | IpLimit [100] | IpWindow [60] | TokenLimit [100] | TokenWindow [60]
 *   ForwardedHeaders:KnownProxies [] | ForwardedHeaders:KnownNetworks []
 *   Redis:Url [none] | Redis:KeyPrefix [wharf:]   (Url set: rate limits and revocations shared)
 *   Redis:CommandTimeoutMs [500] | Redis:ConnectTimeoutMs [2000]   (fallbacks: traffic/redis-client.ts)
 *   Caching:Enabled [true] | Provider [Memory] | DefaultDurationSeconds [300] | MemoryCacheSizeLimitMB [64]
 */
import { readCacheSettings } from '../cache/cache-settings.js';
import type { CacheSettings } from '../cache/cache-settings.js';
import { MemoryCacheStore } from '../cache/cache-store.js';
import type { CacheStore } from '../cache/cache-store.js';
import { RedisCacheStore } from '../cache/redis-cache-store.js';
import { ResponseCache } from '../cache/response-cache.js';
import type { ConfigSource } from '../settings/config-source.js';
import { ClientIpResolver, readForwardedHeadersSettings } from '../traffic/client-ip.js';
import type { ForwardedHeadersSettings } from '../traffic/client-ip.js';
import { MemoryCounterStore } from '../traffic/counter-store.js';
import type { CounterStore } from '../traffic/counter-store.js';
import { RateLimiter, readRateLimitSettings } from '../traffic/rate-limiter.js';
import type { RateLimitSettings } from '../traffic/rate-limiter.js';
import { openRedisLink, readRedisSettings } from '../traffic/redis-client.js';
import type { RedisLink, RedisLogger, RedisSettings } from '../traffic/redis-client.js';
import { RedisCounterStore } from '../traffic/redis-counter-store.js';
import type { AccessControl } from './admission.js';
import { startRevocationBus } from './revocation-bus.js';
import type { RevocationBus } from './revocation-bus.js';
import { openTokenStore, readTokenStoreSettings } from './store/open-store.js';
import type { TokenStoreSettings } from './store/open-store.js';
import type { TokenStore } from './store/token-store.js';
import { TokenService } from './tokens.js';
import { JwtVerifier } from './jwt/jwt-verifier.js';
import { readJwtSettings } from './jwt/jwt-settings.js';
import type { JwtSettings } from './jwt/jwt-settings.js';

export interface AccessSettings {
  readonly store: TokenStoreSettings;
  readonly verificationCacheSeconds: number;
  /** null: Wharf's own tokens only. */
  readonly jwt: JwtSettings | null;
  readonly rateLimiting: RateLimitSettings;
  readonly forwardedHeaders: ForwardedHeadersSettings;
  readonly redis: RedisSettings;
  readonly caching: CacheSettings;
}

export function readAccessSettings(source: ConfigSource, dataDir: string): AccessSettings {
  const settings: AccessSettings = {
    store: readTokenStoreSettings(source, dataDir),
    verificationCacheSeconds: source.int('Auth:VerificationCacheSeconds'),
    jwt: readJwtSettings(source),
    rateLimiting: readRateLimitSettings(source),
    forwardedHeaders: readForwardedHeadersSettings(source),
    redis: readRedisSettings(source),
    caching: readCacheSettings(source),
  };
  if (settings.caching.provider === 'Redis' && settings.redis.url === null) {
    throw new Error('Caching:Provider Redis needs Redis:Url');
  }
  return settings;
}

export interface AccessRuntime {
  readonly settings: AccessSettings;
  readonly store: TokenStore;
  readonly tokens: TokenService;
  readonly jwt: JwtVerifier | null;
  readonly clientIp: ClientIpResolver;
  readonly limiter: RateLimiter;
  readonly cache: ResponseCache;
  /** Pass to installAccessControl / admit. */
  readonly control: AccessControl;
  /** The Redis connection (null without Redis:Url); connects in the background, reconnects for ever. */
  readonly redis: RedisLink | null;
  close(): Promise<void>;
}

export interface AccessRuntimeOptions {
  /** Where failures that must not fail a request are reported (cache invalidation, token store connection losses). */
  readonly onError?: (message: string, error: unknown) => void;
  /** Where Redis reports that it became unreachable and reachable again (one line each). */
  readonly redisLog?: RedisLogger;
}

export async function createAccessRuntime(settings: AccessSettings, options: AccessRuntimeOptions = {}): Promise<AccessRuntime> {
  const store = await openTokenStore(settings.store, options.onError);
  let redis: RedisLink | null = null;
  let bus: RevocationBus | null = null;
  try {
    const { url } = settings.redis;
    if (url !== null) redis = await openRedisLink({ ...settings.redis, url }, options.redisLog ?? (() => undefined));
    const prefix = settings.redis.keyPrefix;
    let tokens: TokenService | null = null;
    if (redis) bus = startRevocationBus(redis, prefix, (id) => tokens?.forget(id));
    await bus?.ready;
    const announce = bus ? (id: number) => bus!.announce(id) : undefined;
    tokens = new TokenService(store, {
      verificationCacheMs: settings.verificationCacheSeconds * 1000,
      ...(announce ? { announce } : {}),
    });
    const counters: CounterStore = redis ? new RedisCounterStore(redis, prefix) : new MemoryCounterStore();
    const limiter = new RateLimiter(settings.rateLimiting, counters);
    const cacheStore: CacheStore =
      settings.caching.provider === 'Redis' && redis
        ? new RedisCacheStore(redis, prefix)
        : new MemoryCacheStore(settings.caching.memoryLimitBytes);
    const cache = new ResponseCache(settings.caching, cacheStore, options.onError);
    const clientIp = new ClientIpResolver(settings.forwardedHeaders);
    const jwt = settings.jwt ? new JwtVerifier(settings.jwt, options.onError ? { onError: options.onError } : {}) : null;
    const redisConnection = redis;
    const busConnection = bus;
    return {
      settings,
      store,
      tokens,
      jwt,
      clientIp,
      limiter,
      cache,
      control: { tokens, jwt, clientIp, limiter },
      redis,
      async close() {
        await busConnection?.close();
        await counters.close();
        await cacheStore.close();
        redisConnection?.close();
        await store.close();
      },
    };
  } catch (error) {
    await bus?.close();
    redis?.close();
    await store.close();
    throw error;
  }
}
