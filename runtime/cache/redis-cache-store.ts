/**
 * Cached responses in Redis, shared by every instance: versions under `<prefix>cv:<endpoint>`,
 * entries under `<prefix>c:<endpoint>:<version>:<key hash>` with a PX expiry. Version read and
 * entry read are one Lua call (one round trip); set only writes when the version is unchanged.
 * Redis errors, and Redis down or held after a timeout (traffic/redis-client.ts), count as misses:
 * the request is served uncached (cache bypass) and the failure is remembered on the link.
 */
import type { RedisLink } from '../traffic/redis-client.js';
import type { CachedResponse, CacheLookup, CacheStore } from './cache-store.js';

const GET_SCRIPT = `
local version = redis.call('GET', KEYS[1]) or '0'
return {version, redis.call('GET', ARGV[1] .. version .. ':' .. ARGV[2])}
`;
const SET_SCRIPT = `
local version = redis.call('GET', KEYS[1]) or '0'
if version ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
`;

interface CacheCommands {
  wharfCacheGet(versionKey: string, entryPrefix: string, keyHash: string): Promise<[string, Buffer | null]>;
  wharfCacheSet(versionKey: string, entryKey: string, version: string, value: Buffer, ttlMs: number): Promise<number>;
}

/** Stored value: 4-byte header length, JSON header {status, headers, etag}, then the body bytes. */
export function encodeEntry(entry: CachedResponse): Buffer {
  const head = Buffer.from(JSON.stringify({ status: entry.status, headers: entry.headers, etag: entry.etag }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(head.length);
  return Buffer.concat([length, head, entry.body]);
}

export function decodeEntry(value: Buffer): CachedResponse {
  const headLength = value.readUInt32BE(0);
  const head = JSON.parse(value.subarray(4, 4 + headLength).toString('utf8')) as Omit<CachedResponse, 'body'>;
  return { ...head, body: value.subarray(4 + headLength) };
}

export class RedisCacheStore implements CacheStore {
  readonly kind = 'redis';
  private readonly commands: CacheCommands;

  constructor(
    private readonly link: RedisLink,
    private readonly keyPrefix = 'wharf:',
  ) {
    const redis = link.redis;
    redis.defineCommand('wharfCacheGet', { numberOfKeys: 1, lua: GET_SCRIPT });
    redis.defineCommand('wharfCacheSet', { numberOfKeys: 2, lua: SET_SCRIPT });
    this.commands = redis as unknown as CacheCommands;
  }

  private versionKey(endpointId: string): string {
    return `${this.keyPrefix}cv:${endpointId}`;
  }

  private entryPrefix(endpointId: string): string {
    return `${this.keyPrefix}c:${endpointId}:`;
  }

  private failed(error: unknown): void {
    this.link.failed(error);
  }

  async get(endpointId: string, keyHash: string): Promise<CacheLookup> {
    if (!this.link.available()) return { version: 'unavailable', entry: null };
    try {
      // Buffer reply: the body may be binary.
      const [version, value] = await (this.link.redis as unknown as { wharfCacheGetBuffer: CacheCommands['wharfCacheGet'] })
        .wharfCacheGetBuffer(this.versionKey(endpointId), this.entryPrefix(endpointId), keyHash);
      return { version: String(version), entry: value ? decodeEntry(value) : null };
    } catch (error) {
      this.failed(error);
      return { version: 'unavailable', entry: null };
    }
  }

  async set(endpointId: string, version: string, keyHash: string, entry: CachedResponse, ttlMs: number): Promise<void> {
    if (version === 'unavailable' || !this.link.available()) return;
    try {
      await this.commands.wharfCacheSet(
        this.versionKey(endpointId),
        `${this.entryPrefix(endpointId)}${version}:${keyHash}`,
        version,
        encodeEntry(entry),
        ttlMs,
      );
    } catch (error) {
      this.failed(error);
    }
  }

  async bump(endpointIds: readonly string[]): Promise<void> {
    if (endpointIds.length === 0) return;
    const pipeline = this.link.redis.multi();
    for (const id of endpointIds) pipeline.incr(this.versionKey(id));
    await pipeline.exec(); // a failure here must surface: the write succeeded, its invalidation did not
  }

  async close(): Promise<void> {}
}
