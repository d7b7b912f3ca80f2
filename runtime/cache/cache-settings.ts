/**
 * Response cache settings:
 *   Caching:Enabled                    true
 *   Caching:Provider                   Memory | Redis (Redis needs Redis:Url; required for more
 *                                      than one instance, else a write invalidates only locally)
 *   Caching:DefaultDurationSeconds     300 (per endpoint: cacheDurationSeconds in the model; 0 = off)
 *   Caching:MemoryCacheSizeLimitMB     64  (Memory provider: least recently used entries go first)
 */
import type { ConfigSource } from '../settings/config-source.js';

export const CACHE_PROVIDERS = ['Memory', 'Redis'] as const;
export type CacheProvider = (typeof CACHE_PROVIDERS)[number];

export interface CacheSettings {
  readonly enabled: boolean;
  readonly provider: CacheProvider;
  readonly defaultDurationSeconds: number;
  readonly memoryLimitBytes: number;
}

export function readCacheSettings(source: ConfigSource): CacheSettings {
  return {
    enabled: source.bool('Caching:Enabled'),
    provider: source.choice('Caching:Provider', CACHE_PROVIDERS),
    defaultDurationSeconds: source.int('Caching:DefaultDurationSeconds'),
    memoryLimitBytes: source.int('Caching:MemoryCacheSizeLimitMB') * 1024 * 1024,
  };
}
