/**
 * The effective value of every writable setting and where it came from, for the console's
 * Settings page (GET /ui/api/settings `effective`): `default`, `file` (settings.json), `environment`
 * (a `__` or legacy variable, which always wins) or `console` (settings.overrides.json, written
 * by PUT /ui/api/settings). A key the console saved that needs a restart shows its value in force
 * plus `pending`.
 *
 * `value` is the one the running server uses. For a key applied at start it is a lookup in the
 * settings as loaded (ConfigSource.read over the registry: the registry's default, settings.json
 * with the console's overrides laid over it, the variables over both), which is what the area that
 * owns the key read, with the same unit (RateLimiting:IpWindow and the other windows in seconds).
 * The loaded settings do not follow a key the server changes while it runs, so those few are
 * read where they are applied (IN_FORCE):
 *   Logging:MinLevel          the logger's level (applied at once by PUT; at start a caller's
 *                             `logger.level` may differ from the setting, e.g. the test server's)
 *   WebUi:SecureCookies,
 *   WebUi:PublicOrigins       the console's own settings (applied at once by PUT)
 *   Environment:ServerName    the settings in force (x-restart for PUT /ui/api/settings, but PATCH
 *                             /ui/api/environments applies `server_name` at once)
 * A writable key with `x-restart: false` must have its IN_FORCE entry (an error names it otherwise).
 * One difference from reading the access runtime: buildServer({ access }) with a runtime the
 * caller opened from other settings (tests only) shows that runtime's values in the `rate_limiting`
 * and `caching` groups and the loaded ones here.
 */
import type { Settings } from '../settings/load-settings.js';
import { getByPath } from '../settings/overrides-file.js';
import type { ConsoleSettings } from './console-settings.js';
import { WRITABLE_SETTINGS } from './writable-settings.js';

export type SettingOrigin = 'default' | 'file' | 'environment' | 'console';

export interface EffectiveSetting {
  readonly value: unknown;
  readonly source: SettingOrigin;
  /** Saved from the console, applied after a restart (only when it differs from `value`). */
  readonly pending?: unknown;
}

/** Where the keys the server changes while it runs are applied, read on each GET. */
export interface SettingsInForce {
  /** The gateway's settings in force (ConsoleGateway.settings()). */
  readonly settings: Settings;
  /** The console's settings (WebUi:*), as changed live. */
  readonly console: ConsoleSettings;
  /** The logger's level. */
  readonly logLevel: string;
}

const IN_FORCE: Readonly<Record<string, (now: SettingsInForce) => unknown>> = {
  'Logging:MinLevel': (now) => now.logLevel,
  'WebUi:SecureCookies': (now) => now.console.secureCookies,
  'WebUi:PublicOrigins': (now) => now.console.publicOrigins,
  'Environment:ServerName': (now) => now.settings.server.environment.serverName,
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** `overrides`: the console's settings.overrides.json as it is now (saved values, applied or pending). */
export function effectiveSettings(now: SettingsInForce, overrides: unknown): Record<string, EffectiveSetting> {
  const loaded = now.settings.server.source;
  const result: Record<string, EffectiveSetting> = {};
  for (const setting of WRITABLE_SETTINGS) {
    const live = IN_FORCE[setting.key];
    if (!live && !setting.requiresRestart) throw new Error(`the writable setting ${setting.key} applies live: name where in effective-settings.ts IN_FORCE`);
    const value = live ? live(now) : loaded.read(setting.key);
    const origin = loaded.origin(setting.key);
    const saved = getByPath(overrides, setting.key);
    // the overrides file is laid under the variables: a console value counts unless a variable wins
    const source: SettingOrigin = origin === 'environment' ? 'environment' : saved.found ? 'console' : (origin ?? 'default');
    const pending = source === 'console' && !same(saved.value, value) ? { pending: saved.value } : {};
    result[setting.key] = { value, source, ...pending };
  }
  return result;
}
