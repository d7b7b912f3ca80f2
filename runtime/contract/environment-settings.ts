/**
 * One environment's settings.json (environments/<name>/settings.json) as a value:
 * `{Provider: "mssql"|"postgres"|"embedded", ConnectionString, Headers{}}`, checked by the rules the
 * gateway starts with (runtime/settings/environments.ts, which reads the folder and throws the
 * registry's error) and `wharf check` reports as diagnostics (compiler/settings/validate-settings.ts):
 * one function, so a file the build passes is one the gateway loads. The connection string is
 * checked with the grammar the SQL drivers read it with (connection-string.ts); the reason never
 * holds its value.
 */
import { connectionStringProblem } from './connection-string.js';

export const DATABASE_PROVIDERS = ['mssql', 'postgres', 'embedded'] as const;
export type DatabaseProvider = (typeof DATABASE_PROVIDERS)[number];

export interface EnvironmentSettings {
  readonly provider: DatabaseProvider;
  /** Secret: never log it (redact()). */
  readonly connectionString: string;
  /** Headers added to upstream (proxy) calls; values of secret-looking names are secrets. */
  readonly headers: Readonly<Record<string, string>>;
}

/** The problem the gateway refuses the file for, named by its field, never by a value. */
export interface EnvironmentSettingsProblem {
  /** `Provider`, `ConnectionString`, `Headers`, or null for the file as a whole. */
  readonly field: 'Provider' | 'ConnectionString' | 'Headers' | null;
  /** The header, for a problem of one header's value. */
  readonly header?: string;
  readonly reason: string;
}

/** The settings of a parsed settings.json, or its first problem. */
export function readEnvironmentSettings(json: unknown): EnvironmentSettings | EnvironmentSettingsProblem {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { field: null, reason: 'must be a JSON object' };
  const record = json as Record<string, unknown>;
  const providerRaw = record['Provider'] ?? 'embedded';
  const provider = DATABASE_PROVIDERS.find((option) => typeof providerRaw === 'string' && option === providerRaw.toLowerCase());
  if (!provider) return { field: 'Provider', reason: `Provider must be one of ${DATABASE_PROVIDERS.join(', ')}` };
  const connectionString = record['ConnectionString'] ?? '';
  if (typeof connectionString !== 'string') return { field: 'ConnectionString', reason: 'ConnectionString must be a string' };
  if (provider !== 'embedded' && connectionString.trim() === '') return { field: 'ConnectionString', reason: `ConnectionString is required for Provider ${provider}` };
  const problem = connectionStringProblem(provider, connectionString);
  if (problem) return { field: 'ConnectionString', reason: `ConnectionString: ${problem}` };
  const headersRaw = record['Headers'] ?? {};
  if (typeof headersRaw !== 'object' || headersRaw === null || Array.isArray(headersRaw)) {
    return { field: 'Headers', reason: 'Headers must be an object of header name to string value' };
  }
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries(headersRaw)) {
    if (typeof value !== 'string') return { field: 'Headers', header, reason: `Headers.${header} must be a string` };
    headers[header] = value;
  }
  return { provider, connectionString, headers };
}

export const isEnvironmentSettingsProblem = (read: EnvironmentSettings | EnvironmentSettingsProblem): read is EnvironmentSettingsProblem => 'reason' in read;
