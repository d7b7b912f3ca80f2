/**
 * Health settings: HealthChecks:* (server-settings.ts) with the HEALTHCHECK_* environment
 * variables laid over them:
 *   HEALTHCHECK_CACHE_TIME      seconds between background refreshes (HealthChecks:CacheTimeSeconds, 30)
 *   HEALTHCHECK_SKIP_PROXY      true: no ProxyEndpoints probes
 *   HEALTHCHECK_DISK_WARNING    percent free below which Diskspace is Degraded (15)
 *   HEALTHCHECK_DISK_CRITICAL   percent free below which Diskspace is Unhealthy (5)
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

function envInt(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new Error(`${name} must be a whole number from 0 to ${max}, got '${raw}'`);
  return Number(raw);
}

export function readHealthSettings(server: ServerSettings, env: Readonly<Record<string, string | undefined>>): HealthSettings {
  const checks = server.healthChecks;
  const skip = env['HEALTHCHECK_SKIP_PROXY']?.trim().toLowerCase();
  if (skip !== undefined && skip !== '' && skip !== 'true' && skip !== 'false') {
    throw new Error(`HEALTHCHECK_SKIP_PROXY must be true or false, got '${env['HEALTHCHECK_SKIP_PROXY']}'`);
  }
  return {
    enabled: checks.enabled,
    refreshSeconds: Math.max(1, envInt(env, 'HEALTHCHECK_CACHE_TIME', checks.cacheTimeSeconds, 86_400)),
    proxyTimeoutMs: checks.proxyTimeoutMs,
    skipProxy: skip === 'true',
    diskWarningPercent: envInt(env, 'HEALTHCHECK_DISK_WARNING', checks.diskSpaceWarningThreshold, 100),
    diskCriticalPercent: envInt(env, 'HEALTHCHECK_DISK_CRITICAL', checks.diskSpaceCriticalThreshold, 100),
    databaseTimeoutMs: 5000,
  };
}
