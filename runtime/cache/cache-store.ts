/**
 * Where cached responses live. Entries are addressed by (endpoint id, endpoint version, key hash);
 * a write to an endpoint bumps its version, so every older entry becomes unreachable at once
 * (on every instance, when the versions live in Redis) and simply expires later. A read that
 * started before the write stores under the old version: it can never resurface.
 */

export interface CachedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Strong ETag (quoted SHA-256 hex of body). */
  readonly etag: string;
}

export interface CacheLookup {
  readonly version: string;
  readonly entry: CachedResponse | null;
}

export interface CacheStore {
  readonly kind: 'memory' | 'redis';
  /** The endpoint's current version and the entry stored under it, in one step. */
  get(endpointId: string, keyHash: string): Promise<CacheLookup>;
  set(endpointId: string, version: string, keyHash: string, entry: CachedResponse, ttlMs: number): Promise<void>;
  /** Invalidates everything cached for these endpoints. */
  bump(endpointIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

interface MemoryEntry {
  readonly entry: CachedResponse;
  readonly expiresAt: number;
  readonly size: number;
}

/** Size-bounded LRU over a Map (insertion order = recency; a hit re-inserts). */
export class MemoryCacheStore implements CacheStore {
  readonly kind = 'memory';
  private readonly entries = new Map<string, MemoryEntry>();
  private readonly versions = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly limitBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  private version(endpointId: string): string {
    return String(this.versions.get(endpointId) ?? 0);
  }

  async get(endpointId: string, keyHash: string): Promise<CacheLookup> {
    const version = this.version(endpointId);
    const key = `${endpointId}\n${version}\n${keyHash}`;
    const found = this.entries.get(key);
    if (!found) return { version, entry: null };
    this.entries.delete(key);
    if (found.expiresAt <= this.now()) {
      this.bytes -= found.size;
      return { version, entry: null };
    }
    this.entries.set(key, found);
    return { version, entry: found.entry };
  }

  async set(endpointId: string, version: string, keyHash: string, entry: CachedResponse, ttlMs: number): Promise<void> {
    if (version !== this.version(endpointId)) return; // written meanwhile: the response may be stale
    const size = entry.body.length + 256 + JSON.stringify(entry.headers).length;
    if (size > this.limitBytes) return;
    const key = `${endpointId}\n${version}\n${keyHash}`;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.size;
    }
    this.entries.set(key, { entry, expiresAt: this.now() + ttlMs, size });
    this.bytes += size;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.limitBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.size;
    }
  }

  async bump(endpointIds: readonly string[]): Promise<void> {
    for (const id of endpointIds) {
      this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
      const prefix = `${id}\n`;
      for (const [key, old] of this.entries) {
        if (!key.startsWith(prefix)) continue;
        this.entries.delete(key);
        this.bytes -= old.size;
      }
    }
  }

  get stats(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
  }
}
