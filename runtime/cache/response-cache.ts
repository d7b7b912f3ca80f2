/**
 * Cache policy: which requests are looked up, which responses are stored, what a write invalidates.
 *  - reads: GET, HEAD (looked up as GET, never stored) and QUERY on SQL, Proxy and Static endpoints,
 *    when Caching:Enabled and the endpoint's duration (cacheDurationSeconds, else the default) > 0;
 *  - stored: status 200, a string/Buffer body, no Set-Cookie, no `Cache-Control: no-store|private|
 *    no-cache` (nor `Pragma: no-cache` without Cache-Control),
 *    no `Vary` naming a request header the key does not cover (varyIsKeyed);
 *  - a successful write (POST, PUT, PATCH, MERGE, DELETE; status < 400) invalidates the endpoint
 *    (and, for a Composite, the Proxy endpoints its steps call) on every instance sharing the store.
 */
import type { EndpointModel } from '../contract/model.js';
import { cacheKeyHash } from './cache-key.js';
import type { CacheKeyInput } from './cache-key.js';
import type { CacheSettings } from './cache-settings.js';
import type { CachedResponse, CacheStore } from './cache-store.js';
import { etagOf } from './etag.js';

export const CACHEABLE_READS: readonly string[] = ['GET', 'HEAD', 'QUERY'];
export const WRITE_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'MERGE', 'DELETE'];
const CACHEABLE_KINDS: readonly string[] = ['sql', 'proxy', 'static'];

/** Response headers that describe this one response, not the resource: never replayed from cache. */
const NOT_STORED = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'etag',
  'x-cache',
  'server-timing',
  'x-query-time',
  'retry-after',
  'age',
  'set-cookie',
  // the request id the gateway sends upstream, echoed back by many upstreams: the first caller's
  'x-request-id',
]);

export type CacheableEndpoint = Pick<EndpointModel, 'id' | 'kind'> & {
  readonly cacheDurationSeconds?: number | null;
  readonly steps?: readonly { readonly targetId: string }[];
};

/**
 * Request headers a stored answer may vary by: Accept is part of the key, an upstream is always
 * asked for `Accept-Encoding: identity`, and CORS answers Origin per request (its `Vary: Origin`,
 * Access-Control-* never stored); a Proxy's Origin, which its upstream receives, is part of the key.
 */
const KEYED_VARY = new Set(['accept', 'accept-encoding', 'origin']);

/**
 * False when `Vary` names `*` or a request header outside the key (Cookie, Accept-Language, a
 * tenant header a Proxy endpoint forwards): that answer belongs to its caller and is never stored
 * (RFC 9111 §4.1), so it is never replayed to another one.
 */
export function varyIsKeyed(vary: unknown): boolean {
  if (vary === undefined) return true;
  const text = Array.isArray(vary) ? vary.join(',') : String(vary);
  return text.split(',').every((name) => {
    const lower = name.trim().toLowerCase();
    return lower === '' || KEYED_VARY.has(lower);
  });
}

/** A miss being filled: what the response must be stored under. */
export interface PendingRead {
  readonly endpointId: string;
  readonly keyHash: string;
  readonly version: string;
  readonly ttlMs: number;
  readonly storable: boolean;
}

export interface CacheReadResult {
  readonly pending: PendingRead;
  readonly hit: CachedResponse | null;
}

export class ResponseCache {
  constructor(
    readonly settings: CacheSettings,
    readonly store: CacheStore,
    private readonly onError: (message: string, error: unknown) => void = () => {},
  ) {}

  durationSeconds(endpoint: CacheableEndpoint): number {
    if (!this.settings.enabled || !CACHEABLE_KINDS.includes(endpoint.kind)) return 0;
    return endpoint.cacheDurationSeconds ?? this.settings.defaultDurationSeconds;
  }

  isCacheableRead(method: string, endpoint: CacheableEndpoint): boolean {
    return CACHEABLE_READS.includes(method.toUpperCase()) && this.durationSeconds(endpoint) > 0;
  }

  /** null when the request is not a cacheable read. */
  async read(endpoint: CacheableEndpoint, key: Omit<CacheKeyInput, 'endpointId'>): Promise<CacheReadResult | null> {
    if (!this.isCacheableRead(key.method, endpoint)) return null;
    const keyHash = cacheKeyHash({ ...key, endpointId: endpoint.id });
    const { version, entry } = await this.store.get(endpoint.id, keyHash);
    return {
      hit: entry,
      pending: {
        endpointId: endpoint.id,
        keyHash,
        version,
        ttlMs: this.durationSeconds(endpoint) * 1000,
        storable: key.method.toUpperCase() !== 'HEAD',
      },
    };
  }

  /** Stores a finished response when it may be replayed to others. */
  async write(
    pending: PendingRead,
    status: number,
    headers: Readonly<Record<string, unknown>>,
    body: Buffer,
    etag?: string,
  ): Promise<CachedResponse | null> {
    if (!pending.storable || status !== 200 || headers['set-cookie'] !== undefined) return null;
    const cacheControl = headers['cache-control'];
    // no-cache: to be used only after revalidation, which this cache never does (RFC 9111 §5.2.2.4)
    if (/no-store|private|no-cache/i.test(String(cacheControl ?? ''))) return null;
    if (cacheControl === undefined && /no-cache/i.test(String(headers['pragma'] ?? ''))) return null;
    if (!varyIsKeyed(headers['vary'])) return null;
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      // access-control-*: CORS answers the requesting origin (runtime/traffic/cors.ts), never another's
      if (NOT_STORED.has(lower) || lower.startsWith('x-ratelimit-') || lower.startsWith('access-control-') || value === undefined) continue;
      kept[lower] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    const entry: CachedResponse = { status, headers: kept, body, etag: etag ?? etagOf(body) };
    await this.store.set(pending.endpointId, pending.version, pending.keyHash, entry, pending.ttlMs);
    return entry;
  }

  invalidationTargets(endpoint: CacheableEndpoint): string[] {
    return [endpoint.id, ...(endpoint.steps ?? []).map((step) => step.targetId)];
  }

  /** After a successful write. Never throws: a failed invalidation is reported, entries expire by TTL. */
  async invalidate(endpoint: CacheableEndpoint): Promise<void> {
    if (!this.settings.enabled) return;
    try {
      await this.store.bump(this.invalidationTargets(endpoint));
    } catch (error) {
      this.onError(`Cache invalidation for ${endpoint.id} failed; entries expire by their TTL`, error);
    }
  }
}
