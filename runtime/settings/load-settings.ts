/**
 * Everything the server reads from environments/: server settings (settings.json, then the console's
 * settings.overrides.json, then `__` environment variable overrides) and the environment folders. Errors name the file or key at fault.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { WharfError } from '../errors/wharf-error.js';
import { displayPath } from '../load/display-path.js';
import { ConfigSource } from './config-source.js';
import { loadEnvironments } from './environments.js';
import { mergeSettings, readOverrides } from './overrides-file.js';
import type { EnvironmentMap } from './environments.js';
import { readServerSettings } from './server-settings.js';
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

async function readSettingsJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new WharfError('SETTINGS_FILE_INVALID', { file: displayPath(file), reason: (error as Error).message });
  }
}

export async function loadSettings(options: LoadSettingsOptions = {}): Promise<Settings> {
  const dir = path.resolve(options.environmentsDir ?? 'environments');
  const file = path.join(dir, 'settings.json');
  const json = mergeSettings(await readSettingsJson(file), await readOverrides(dir));
  const source = ConfigSource.from(json, displayPath(file), options.env ?? process.env);
  const server = readServerSettings(source);
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
