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
    enabled: source.bool('Caching:Enabled', true),
    provider: source.choice('Caching:Provider', CACHE_PROVIDERS, 'Memory'),
    defaultDurationSeconds: source.int('Caching:DefaultDurationSeconds', 300, { min: 0, max: 86_400 * 30 }),
    memoryLimitBytes: source.int('Caching:MemoryCacheSizeLimitMB', 64, { min: 1, max: 16_384 }) * 1024 * 1024,
  };
}
