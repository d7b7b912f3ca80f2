/**
 * The effective value of every writable setting and where it came from, for the console's
 * Settings page (GET /ui/api/settings `effective`): `default`, `file` (settings.json),
 * `environment` (a `__` variable, which always wins) or `console` (settings.overrides.json, written
 * by PUT /ui/api/settings). Values are the ones the running server uses (its loaded settings),
 * so a key the console saved that needs a restart shows its value in force plus `pending`.
 *
 * Interim: one getter per writable key, read from the loaded settings. When the settings registry
 * (schemas/settings.schema.json, runtime/settings/) gives each key's effective value and source,
 * this file becomes a lookup in it; the route and the page keep the same shape.
 */
import type { FastifyInstance } from 'fastify';
import type { WharfRuntime } from '../wharf-runtime.js';
import type { ConsoleRuntime } from './console-runtime.js';
import { WRITABLE_SETTINGS } from './writable-settings.js';

export type SettingOrigin = 'default' | 'file' | 'environment' | 'console';

export interface EffectiveSetting {
  readonly value: unknown;
  readonly source: SettingOrigin;
  /** Saved from the console, applied after a restart (only when it differs from `value`). */
  readonly pending?: unknown;
}

type Getter = (runtime: WharfRuntime, state: ConsoleRuntime, app: FastifyInstance) => unknown;

const GETTERS: Readonly<Record<string, Getter>> = {
  'RateLimiting:Enabled': (r) => r.access.settings.rateLimiting.enabled,
  'RateLimiting:IpLimit': (r) => r.access.settings.rateLimiting.ipLimit,
  'RateLimiting:IpWindow': (r) => r.access.settings.rateLimiting.ipWindowSeconds,
  'RateLimiting:TokenLimit': (r) => r.access.settings.rateLimiting.tokenLimit,
  'RateLimiting:TokenWindow': (r) => r.access.settings.rateLimiting.tokenWindowSeconds,
  'Caching:Enabled': (r) => r.access.settings.caching.enabled,
  'Caching:DefaultDurationSeconds': (r) => r.access.settings.caching.defaultDurationSeconds,
  'SqlConnectionPooling:Enabled': (r) => r.settings.server.sqlPooling.enabled,
  'SqlConnectionPooling:MinPoolSize': (r) => r.settings.server.sqlPooling.minPoolSize,
  'SqlConnectionPooling:MaxPoolSize': (r) => r.settings.server.sqlPooling.maxPoolSize,
  'Logging:MinLevel': (_r, _s, app) => app.log.level,
  'HealthChecks:Enabled': (r) => r.settings.server.healthChecks.enabled,
  'HealthChecks:CacheTimeSeconds': (r) => r.settings.server.healthChecks.cacheTimeSeconds,
  'Environment:ServerName': (r) => r.settings.server.environment.serverName,
  'WebUi:SecureCookies': (_r, s) => s.settings.secureCookies,
  'WebUi:PublicOrigins': (_r, s) => s.settings.publicOrigins,
  'ForwardedHeaders:KnownProxies': (r) => r.access.settings.forwardedHeaders.knownProxies,
  'ForwardedHeaders:KnownNetworks': (r) => r.access.settings.forwardedHeaders.knownNetworks,
};

/** A colon key in a nested settings object, case-insensitively. */
function lookup(tree: unknown, key: string): { found: boolean; value: unknown } {
  let node = tree;
  for (const part of key.split(':')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return { found: false, value: undefined };
    const name = Object.keys(node).find((k) => k.toLowerCase() === part.toLowerCase());
    if (name === undefined) return { found: false, value: undefined };
    node = (node as Record<string, unknown>)[name];
  }
  return { found: true, value: node };
}

/** Whether the loaded settings have `key` (or, for a list, any `key:<n>` entry) and from where. */
function loadedOrigin(runtime: WharfRuntime, key: string): 'file' | 'environment' | null {
  const source = runtime.settings.server.source;
  const entry = source.entry(key) ?? source.all().find((e) => e.key.toLowerCase().startsWith(`${key.toLowerCase()}:`));
  if (!entry) return null;
  return entry.source.startsWith('environment variable') ? 'environment' : 'file';
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function effectiveSettings(app: FastifyInstance, runtime: WharfRuntime, state: ConsoleRuntime, overrides: unknown): Record<string, EffectiveSetting> {
  const result: Record<string, EffectiveSetting> = {};
  for (const setting of WRITABLE_SETTINGS) {
    const getter = GETTERS[setting.key];
    if (!getter) throw new Error(`no effective value for the writable setting ${setting.key}`);
    const value = getter(runtime, state, app);
    const loaded = loadedOrigin(runtime, setting.key);
    const saved = lookup(overrides, setting.key);
    // the overrides file is laid under the variables: a console value counts unless a variable wins
    const source: SettingOrigin = loaded === 'environment' ? 'environment' : saved.found ? 'console' : (loaded ?? 'default');
    const pending = source === 'console' && !same(saved.value, value) ? { pending: saved.value } : {};
    result[setting.key] = { value, source, ...pending };
  }
  return result;
}
