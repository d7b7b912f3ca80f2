/**
 * Environments: one folder per environment under environments/, each with a settings.json
 * `{Provider: "mssql"|"postgres"|"embedded", ConnectionString, Headers{}}`. A folder without
 * settings.json is not a configured environment. Names match case-insensitively.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { WharfError } from '../errors/wharf-error.js';
import { connectionStringProblem } from '../sql/drivers/connection-string.js';

export const DATABASE_PROVIDERS = ['mssql', 'postgres', 'embedded'] as const;
export type DatabaseProvider = (typeof DATABASE_PROVIDERS)[number];

export interface EnvironmentConfig {
  /** Folder name, original case. */
  readonly name: string;
  readonly provider: DatabaseProvider;
  /** Secret: never log it (redact()). */
  readonly connectionString: string;
  /** Headers added to upstream (proxy) calls; values of secret-looking names are secrets. */
  readonly headers: Readonly<Record<string, string>>;
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
    json = JSON.parse(text);
  } catch (error) {
    throw new WharfError('SETTINGS_FILE_INVALID', { file, reason: (error as Error).message });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail(file, 'must be a JSON object');
  const record = json as Record<string, unknown>;
  const providerRaw = record['Provider'] ?? 'embedded';
  const provider = DATABASE_PROVIDERS.find(
    (option) => typeof providerRaw === 'string' && option === providerRaw.toLowerCase(),
  );
  if (!provider) fail(file, `Provider must be one of ${DATABASE_PROVIDERS.join(', ')}`);
  const connectionString = record['ConnectionString'] ?? '';
  if (typeof connectionString !== 'string') fail(file, 'ConnectionString must be a string');
  if (provider !== 'embedded' && connectionString.trim() === '') {
    fail(file, `ConnectionString is required for Provider ${provider}`);
  }
  const problem = connectionStringProblem(provider, connectionString);
  if (problem) fail(file, `ConnectionString: ${problem}`);
  const headersRaw = record['Headers'] ?? {};
  if (typeof headersRaw !== 'object' || headersRaw === null || Array.isArray(headersRaw)) {
    fail(file, 'Headers must be an object of header name to string value');
  }
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(headersRaw)) {
    if (typeof value !== 'string') fail(file, `Headers.${header} must be a string`);
    headers[header] = value;
  }
  return { name, provider, connectionString, headers, file };
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
