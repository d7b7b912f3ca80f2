/**
 * Server:Workers: how many processes `wharf start` runs on its port (workers.ts), and what they
 * need. A number 1 to 64, or `auto` (one per core, os.availableParallelism()). More than one
 * worker is several instances on one host: what an instance keeps in its own memory (rate-limit
 * counters, the token verification cache, the Memory response cache, console event ids and
 * subscribers, an embedded database) would be per worker, so it must live in the stores several
 * instances share (docs/deployment.md), and startup is refused, naming Server:Workers and the
 * key to set, when it does not.
 */
import { availableParallelism } from 'node:os';
import { WharfError } from '../errors/wharf-error.js';
import { displayPath } from '../load/display-path.js';
import type { ConfigSource } from '../settings/config-source.js';
import { loadEnvironments, type EnvironmentMap } from '../settings/environments.js';
import { readSettingsSource } from '../settings/load-settings.js';
import { readServerSettings, type LogLevel } from '../settings/server-settings.js';

export const WORKERS_KEY = 'Server:Workers';
const MAX_WORKERS = 64;

export function workerCount(source: ConfigSource, cores: number = availableParallelism()): number {
  const value = source.intOrWord(WORKERS_KEY);
  return value === 'auto' ? Math.min(Math.max(1, cores), MAX_WORKERS) : (value as number);
}

/** What per-process state each missing store would leave; null when the stores are there. */
function missingStore(source: ConfigSource, environments: EnvironmentMap): string | null {
  if (source.string('Redis:Url').trim() === '') {
    return 'Redis:Url must be set (rate limits, token revocations and console events would otherwise be per worker)';
  }
  if (source.string('Auth:Store:Provider') !== 'Postgres') {
    return 'Auth:Store:Provider must be Postgres (tokens, console accounts, sessions and settings shared by the workers)';
  }
  if (source.bool('Caching:Enabled') && source.string('Caching:Provider') !== 'Redis') {
    return 'Caching:Provider must be Redis, or Caching:Enabled false (a Memory cache would be per worker: a write would clear only one)';
  }
  const embedded = [...environments.values()].find((env) => env.provider === 'embedded');
  if (embedded) return `environment '${embedded.name}' uses the embedded database, which would be one copy per worker: give it a database server`;
  return null;
}

/** Throws SETTINGS_INVALID_VALUE naming Server:Workers when `count` workers would not share their state. */
export function requireSharedStores(source: ConfigSource, count: number, environments: EnvironmentMap): void {
  if (count <= 1) return;
  const missing = missingStore(source, environments);
  if (missing === null) return;
  throw new WharfError('SETTINGS_INVALID_VALUE', {
    key: WORKERS_KEY,
    source: source.entry(WORKERS_KEY)?.source ?? 'default',
    reason: `is ${count}: ${missing}; or set it to 1`,
  });
}

export interface WorkersPlan {
  readonly count: number;
  readonly shutdownTimeoutSeconds: number;
  /** Logging:MinLevel, for the primary's own lines. */
  readonly logLevel: LogLevel;
}

/**
 * What `wharf start` runs, read before anything starts: Server:Workers (checked like every key;
 * a bad value stops here naming it) and, above 1, the shared stores it needs.
 */
export async function planWorkers(environmentsDir: string): Promise<WorkersPlan> {
  const source = readSettingsSource(environmentsDir);
  const count = workerCount(source);
  if (count > 1) requireSharedStores(source, count, await loadEnvironments(environmentsDir, displayPath(environmentsDir)));
  const settings = readServerSettings(source);
  return { count, shutdownTimeoutSeconds: settings.server.shutdownTimeoutSeconds, logLevel: settings.logging.minLevel };
}
