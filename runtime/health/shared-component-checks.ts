/**
 * Health checks of the shared components (spec check shape; added to /health/details when present):
 *   TokenStore  (tags database, auth)         a PostgreSQL token store answering `SELECT 1` within
 *               Auth:Store:CommandTimeoutMs; down: Unhealthy (tokens not verified in the last
 *               Auth:VerificationCacheSeconds get 503 AUTH_STORE_UNAVAILABLE)
 *   Redis       (tags redis, cache, ratelimiting)  PING within Redis:CommandTimeoutMs; down or
 *               frozen: Degraded (the gateway serves on its fallbacks: per-instance rate limits,
 *               cache bypass, revocations by verification cache TTL)
 *   IdentityProvider (tags auth, jwt)  with Auth:Jwt:Issuer: the provider's key set fetched within
 *               Auth:Jwt:KeysTimeoutMs; down or frozen: Degraded (Wharf tokens and everything else
 *               keep working; JWTs verify with the cached keys, or get 503 while none were ever fetched)
 * `data.error` carries the failure; a message carrying credentials is masked.
 */
import type { TokenStore } from '../auth/store/token-store.js';
import { redact } from '../settings/redact.js';
import type { RedisLink } from '../traffic/redis-client.js';
import type { RemoteKeySet } from '../auth/jwt/key-set.js';
import type { HealthCheck } from './health-check.js';
import { formatDuration } from './health-check.js';

function causeMessage(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error && cause.message !== '' ? cause.message : null;
  const message = error instanceof Error ? error.message : String(error);
  // AggregateError (several addresses refused) has an empty message
  return inner ?? (message === '' ? 'connection failed' : message);
}

/** A driver message, masked whole when it carries credentials (redact()). */
function safe(message: string): string {
  return redact(message) as string;
}

export function tokenStoreCheck(store: TokenStore): HealthCheck {
  return {
    name: 'TokenStore',
    tags: ['database', 'auth'],
    async run() {
      const started = performance.now();
      try {
        await store.ping();
      } catch (error) {
        return {
          status: 'Unhealthy',
          description: 'The token store is not available: tokens not verified recently are answered 503',
          data: { provider: store.kind, error: safe(causeMessage(error)) },
        };
      }
      return { status: 'Healthy', description: 'The token store is answering', data: { provider: store.kind, responseTime: formatDuration(performance.now() - started) } };
    },
  };
}

export function redisCheck(link: RedisLink): HealthCheck {
  return {
    name: 'Redis',
    tags: ['redis', 'cache', 'ratelimiting'],
    async run() {
      try {
        const ms = await link.ping();
        return { status: 'Healthy', description: 'Redis is answering', data: { connection: 'Configured', responseTime: formatDuration(ms) } };
      } catch (error) {
        link.failed(error);
        return {
          status: 'Degraded',
          description: 'Redis is unreachable: rate limits are per instance and the Redis cache is bypassed',
          data: { connection: 'Configured', error: safe(causeMessage(error)) },
        };
      }
    },
  };
}

/** The JWT provider's key set (Auth:Jwt:*): probed at every health run. */
export function identityProviderCheck(issuer: string, keys: Pick<RemoteKeySet, 'probe' | 'cached'>, now: () => number = Date.now): HealthCheck {
  /** What is cached: the number of keys and, once fetched, their age. */
  const cached = (): Record<string, unknown> => {
    const { keys: count, fetchedAt } = keys.cached;
    return { issuer: safe(issuer), keys: count, ...(fetchedAt === null ? {} : { keysAge: `${Math.round((now() - fetchedAt) / 1000)} seconds` }) };
  };
  return {
    name: 'IdentityProvider',
    tags: ['auth', 'jwt'],
    async run() {
      const started = performance.now();
      try {
        await keys.probe();
      } catch (error) {
        const data = { ...cached(), error: safe(causeMessage(error)) };
        return keys.cached.fetchedAt === null
          ? { status: 'Degraded', description: "The identity provider's signing keys could not be fetched: JWT bearer tokens are answered 503 (Wharf tokens work)", data }
          : { status: 'Degraded', description: 'The identity provider is not answering: JWTs are verified with the keys cached earlier (a rotation is not seen until it answers)', data };
      }
      const data = { ...cached(), responseTime: formatDuration(performance.now() - started) };
      const { unusable, keys: count } = keys.cached;
      if (count === 0) {
        return { status: 'Degraded', description: 'The identity provider publishes no signing keys: every JWT is answered 401 (Wharf tokens work)', data };
      }
      if (unusable.length > 0) {
        return {
          status: 'Degraded',
          description: "Some of the identity provider's signing keys cannot verify tokens (malformed, or RSA under 2048 bits): their tokens are answered 401",
          data: { ...data, unusableKeys: unusable.map((kid) => safe(kid)) },
        };
      }
      return { status: 'Healthy', description: 'The identity provider answers with its signing keys', data };
    },
  };
}
