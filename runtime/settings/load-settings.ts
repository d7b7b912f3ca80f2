/**
 * Everything the server reads from environments/: server settings (settings.json, then the console's
 * settings.overrides.json, then `__` environment variable overrides) and the environment folders. Errors name the file or key at fault.
 * With a PostgreSQL token store the console's shared changes are first laid into those files (shared-overrides.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WharfError } from '../errors/wharf-error.js';
import { displayPath } from '../load/display-path.js';
import { ConfigSource } from './config-source.js';
import { loadEnvironments } from './environments.js';
import { mergeSettings, overridesPath } from './overrides-file.js';
import type { EnvironmentMap } from './environments.js';
import { readServerSettings } from './server-settings.js';
import { pullSharedOverrides } from './shared-overrides.js';
import type { ServerSettings } from './server-settings.js';

export interface Settings {
  readonly server: ServerSettings;
  readonly environments: EnvironmentMap;
}

export interface LoadSettingsOptions {
  /** Folder holding settings.json and one folder per environment. Default `environments`. */
  readonly environmentsDir?: string;
  /** Variables for `__` overrides. Default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (error) {
    throw new WharfError('SETTINGS_FILE_INVALID', { file: displayPath(file), reason: (error as Error).message });
  }
}

/**
 * environments/settings.json, then the console's settings.overrides.json, then the legacy and
 * `Section__Key` variables, checked once against the registry: the one reader of the settings of
 * the gateway and of `wharf docs serve`.
 */
export function readSettingsSource(
  environmentsDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  /** The console's overrides to use instead of the file (PUT /ui/api/settings checks the next start with them). */
  overridesInstead?: Record<string, unknown>,
): ConfigSource {
  const dir = path.resolve(environmentsDir);
  const file = path.join(dir, 'settings.json');
  const overrides = overridesInstead ?? readJson(overridesPath(dir));
  if (overrides !== undefined && (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))) {
    throw new WharfError('SETTINGS_FILE_INVALID', { file: displayPath(overridesPath(dir)), reason: 'it must hold a JSON object' });
  }
  return ConfigSource.from(mergeSettings(readJson(file), overrides), displayPath(file), env);
}

export async function loadSettings(options: LoadSettingsOptions = {}): Promise<Settings> {
  const dir = path.resolve(options.environmentsDir ?? 'environments');
  const env = options.env ?? process.env;
  // with a PostgreSQL token store: what the console saved on any instance, into the files first
  await pullSharedOverrides(dir, readSettingsSource(dir, env));
  const server = readServerSettings(readSettingsSource(dir, env));
  const environments = await loadEnvironments(dir, displayPath(dir));
  return { server, environments };
}

/** The environments this server answers for: the allowed list, or every configured folder when absent. */
export function environmentNames(settings: Settings): string[] {
  return [...(settings.server.environment.allowedEnvironments ?? [...settings.environments.values()].map((env) => env.name))];
}

/** Environments a request may name: the allowed list, or every configured folder when absent. */
export function isEnvironmentAllowed(settings: Settings, name: string): boolean {
  const allowed = settings.server.environment.allowedEnvironments;
  if (allowed === null) return settings.environments.has(name.toLowerCase());
  return allowed.some((item) => item.toLowerCase() === name.toLowerCase());
}
