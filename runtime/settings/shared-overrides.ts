/**
 * Console changes on several instances: the shared store of what the console changed (PUT /ui/api/settings, PATCH /ui/api/environments)
 * when the token store is PostgreSQL (Auth:Store:Provider Postgres): the table
 * `wharf_console_settings` (key, value JSONB, version), one row per entry:
 *   `setting:<Colon:Key>`  a setting's value (what settings.overrides.json holds on one instance);
 *   `environment:<name>`  the whole content of environments/<name>/settings.json.
 * Every write numbers its rows from one sequence (`version`). The pool is the token store's kind
 * (store-pool.ts): a deadline on every wait, AUTH_STORE_UNAVAILABLE (503) when the database is down.
 * With the SQLite store (one instance) there is no shared store: the files are the truth.
 *
 * Each instance keeps the store's entries in its own files (writeSharedCache): the store's settings
 * in settings.overrides.json, its environments in environments/<name>/settings.json. Those files are
 * the last known values: loadSettings reads the store into them before it reads the files (so a
 * change made while an instance was down, restart-only settings included, is in force when it
 * starts), and when the store does not answer the files as they are serve.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { openStorePool, readTokenStoreSettings } from '../auth/store/open-store.js';
import type { StoreErrorListener, TokenStoreSettings } from '../auth/store/open-store.js';
import { createSchema } from '../auth/store/pg-schema.js';
import type { PgQueryable } from '../auth/store/pg-schema.js';
import type { StorePool } from '../auth/store/store-pool.js';
import { writeFileAtomic } from '../admin/atomic-file.js';
import { WharfError } from '../errors/wharf-error.js';
import type { ConfigSource } from './config-source.js';
import { overridesPath, readOverrides, setByPath } from './overrides-file.js';

export const SETTING_PREFIX = 'setting:';
export const ENVIRONMENT_PREFIX = 'environment:';

export interface ConsoleSettingsSnapshot {
  /** Colon key (as registered) to value. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Environment folder name to the content of its settings.json. */
  readonly environments: Readonly<Record<string, Record<string, unknown>>>;
  /** The highest version of any row (0: nothing stored yet). */
  readonly version: number;
}

export interface ConsoleSettingsChange {
  readonly settings?: ReadonlyMap<string, unknown>;
  readonly environments?: ReadonlyMap<string, Record<string, unknown>>;
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS wharf_console_settings (key TEXT PRIMARY KEY, value JSONB NOT NULL, version BIGINT NOT NULL)`,
  `CREATE SEQUENCE IF NOT EXISTS wharf_console_settings_version`,
];

export class PostgresConsoleSettingsStore {
  private constructor(private readonly pool: StorePool) {}

  /** Opens a small pool beside the token store's; the table is created now or when the database answers. */
  static async open(settings: TokenStoreSettings, onError?: StoreErrorListener): Promise<PostgresConsoleSettingsStore> {
    const pool = openStorePool(settings, 'Console settings store', 2, onError);
    await pool.prepare((db: PgQueryable) => createSchema(db, SCHEMA));
    return new PostgresConsoleSettingsStore(pool);
  }

  async read(): Promise<ConsoleSettingsSnapshot> {
    const { rows } = await this.pool.query('SELECT key, value, version FROM wharf_console_settings ORDER BY key');
    const settings: Record<string, unknown> = {};
    const environments: Record<string, Record<string, unknown>> = {};
    let version = 0;
    for (const row of rows as { key: string; value: unknown; version: string }[]) {
      version = Math.max(version, Number(row.version));
      if (row.key.startsWith(SETTING_PREFIX)) settings[row.key.slice(SETTING_PREFIX.length)] = row.value;
      else if (row.key.startsWith(ENVIRONMENT_PREFIX)) environments[row.key.slice(ENVIRONMENT_PREFIX.length)] = row.value as Record<string, unknown>;
    }
    return { settings, environments, version };
  }

  /** Writes every entry of the change in one statement (all or none). */
  async update(change: ConsoleSettingsChange): Promise<void> {
    const keys: string[] = [];
    const values: string[] = [];
    for (const [key, value] of change.settings ?? []) keys.push(SETTING_PREFIX + key) && values.push(JSON.stringify(value));
    for (const [name, value] of change.environments ?? []) keys.push(ENVIRONMENT_PREFIX + name) && values.push(JSON.stringify(value));
    if (keys.length === 0) return;
    await this.pool.query(
      `INSERT INTO wharf_console_settings (key, value, version)
       SELECT k, v::jsonb, nextval('wharf_console_settings_version') FROM unnest($1::text[], $2::text[]) AS t(k, v)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, version = EXCLUDED.version`,
      [keys, values],
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Lays the store's entries into this instance's files (only those that differ are written,
 * atomically); returns the environments whose settings.json changed.
 */
export async function writeSharedCache(environmentsDir: string, snapshot: ConsoleSettingsSnapshot): Promise<string[]> {
  const overrides = await readOverrides(environmentsDir);
  for (const [key, value] of Object.entries(snapshot.settings)) setByPath(overrides, key, value);
  const overridesText = jsonText(overrides);
  if ((await readText(overridesPath(environmentsDir))) !== overridesText) await writeFileAtomic(overridesPath(environmentsDir), overridesText);
  const changed: string[] = [];
  for (const [name, content] of Object.entries(snapshot.environments)) {
    const file = path.join(environmentsDir, name, 'settings.json');
    const wanted = jsonText(content);
    if ((await readText(file)) === wanted) continue;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, wanted);
    changed.push(name);
  }
  return changed;
}

/**
 * At start (loadSettings): with a PostgreSQL token store, the store's entries into the files before
 * they are read, within Auth:Store:CommandTimeoutMs. A store that does not answer leaves the files
 * (the last known values); the console logs that line once it starts (shared-console-settings.ts).
 */
export async function pullSharedOverrides(environmentsDir: string, source: ConfigSource): Promise<void> {
  const settings = readTokenStoreSettings(source, environmentsDir); // the data folder only locates a SQLite store
  if (settings.provider !== 'Postgres') return;
  const store = await PostgresConsoleSettingsStore.open(settings);
  try {
    await writeSharedCache(environmentsDir, await store.read());
  } catch (error) {
    if (!(error instanceof WharfError && error.code === 'AUTH_STORE_UNAVAILABLE')) throw error;
  } finally {
    await store.close();
  }
}
