/**
 * Environments: one folder per environment under environments/, each with a settings.json
 * `{Provider: "mssql"|"postgres"|"embedded", ConnectionString, Headers{}}` (its rules:
 * runtime/contract/environment-settings.ts, shared with `wharf check`). A folder without
 * settings.json is not a configured environment. Names match case-insensitively.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { WharfError } from '../errors/wharf-error.js';
import { isEnvironmentSettingsProblem, readEnvironmentSettings, type EnvironmentSettings } from '../contract/environment-settings.js';

export { DATABASE_PROVIDERS, type DatabaseProvider } from '../contract/environment-settings.js';

export interface EnvironmentConfig extends EnvironmentSettings {
  /** Folder name, original case. */
  readonly name: string;
  /** Location of the settings.json, for messages. */
  readonly file: string;
}

export type EnvironmentMap = ReadonlyMap<string, EnvironmentConfig>;

export function findEnvironment(map: EnvironmentMap, name: string): EnvironmentConfig | undefined {
  return map.get(name.toLowerCase());
}

function fail(file: string, reason: string): never {
  throw new WharfError('SETTINGS_ENVIRONMENT_INVALID', { file, reason });
}

export function parseEnvironment(name: string, file: string, text: string): EnvironmentConfig {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); // a byte order mark is fine, as in settings.json and for `wharf check`
  } catch (error) {
    throw new WharfError('SETTINGS_FILE_INVALID', { file, reason: (error as Error).message });
  }
  const read = readEnvironmentSettings(json);
  if (isEnvironmentSettingsProblem(read)) fail(file, read.reason);
  return { name, ...read, file };
}

/**
 * Reads every environments/<name>/settings.json. `displayDir` is used in messages. `planned`
 * (folder name to settings.json text) is read instead of the disk, new folders included: the
 * environments as they will be once those files are written, checked before anything is.
 */
export async function loadEnvironments(dir: string, displayDir = dir, planned: ReadonlyMap<string, string> = new Map()): Promise<EnvironmentMap> {
  const map = new Map<string, EnvironmentConfig>();
  let folders: string[] = [];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  folders = [...new Set([...folders, ...planned.keys()])].sort();
  for (const name of folders) {
    const file = path.join(dir, name, 'settings.json');
    let text: string;
    try {
      text = planned.get(name) ?? (await readFile(file, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const display = `${displayDir}/${name}/settings.json`;
    const environment = parseEnvironment(name, display, text);
    const key = name.toLowerCase();
    const clash = map.get(key);
    if (clash) fail(display, `environment name clashes with '${clash.name}' (names are case-insensitive)`);
    map.set(key, environment);
  }
  return map;
}
