/**
 * Health settings: HealthChecks:* (server-settings.ts). The registry lays the legacy HEALTHCHECK_*
 * environment variables over them (below `HealthChecks__*`), with the same grammar and ranges:
 *   HEALTHCHECK_CACHE_TIME      seconds between background refreshes (HealthChecks:CacheTimeSeconds, 30)
 *   HEALTHCHECK_SKIP_PROXY      true: no ProxyEndpoints probes (HealthChecks:SkipProxy)
 *   HEALTHCHECK_DISK_WARNING    percent free below which Diskspace is Degraded (HealthChecks:DiskSpaceWarningThreshold)
 *   HEALTHCHECK_DISK_CRITICAL   percent free below which Diskspace is Unhealthy (HealthChecks:DiskSpaceCriticalThreshold)
 *   HealthChecks:ProxyTimeout   milliseconds per proxy probe (10000, spec 2's 10 s); Database probes time out after 5 s.
 */
import type { ServerSettings } from '../settings/server-settings.js';

export interface HealthSettings {
  readonly enabled: boolean;
  readonly refreshSeconds: number;
  readonly proxyTimeoutMs: number;
  readonly skipProxy: boolean;
  readonly diskWarningPercent: number;
  readonly diskCriticalPercent: number;
  readonly databaseTimeoutMs: number;
}

export function readHealthSettings(server: ServerSettings): HealthSettings {
  const checks = server.healthChecks;
  return {
    enabled: checks.enabled,
    refreshSeconds: Math.max(1, checks.cacheTimeSeconds),
    proxyTimeoutMs: checks.proxyTimeoutMs,
    skipProxy: server.source.bool('HealthChecks:SkipProxy'),
    diskWarningPercent: checks.diskSpaceWarningThreshold,
    diskCriticalPercent: checks.diskSpaceCriticalThreshold,
    databaseTimeoutMs: 5000,
  };
}
