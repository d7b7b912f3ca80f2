/**
 * Chooses and opens the token store from the settings:
 *   Auth:Store:Provider          Sqlite (default) | Postgres | SqlServer
 *   Auth:Store:Path              SQLite file, default <data folder>/auth.db
 *   Auth:Store:ConnectionString  for Postgres / SqlServer (secret; never logged)
 *   Auth:Store:CommandTimeoutMs  deadline of every wait on a database store (default 2000):
 *                                past it, or with the database down, a request gets 503 AUTH_STORE_UNAVAILABLE
 */
import path from 'node:path';
import type { ConfigSource } from '../../settings/config-source.js';
import { PostgresTokenStore } from './postgres-store.js';
import { SqliteTokenStore } from './sqlite-store.js';
import { StorePool } from './store-pool.js';
import type { TokenStore } from './token-store.js';

export const TOKEN_STORE_PROVIDERS = ['Sqlite', 'Postgres', 'SqlServer'] as const;
export type TokenStoreProvider = (typeof TOKEN_STORE_PROVIDERS)[number];

export interface TokenStoreSettings {
  readonly provider: TokenStoreProvider;
  readonly file: string;
  readonly connectionString: string | null;
  /** Deadline of every wait on a PostgreSQL store (connect, free connection, query), in ms. */
  readonly timeoutMs: number;
}

/** Where a database store reports connection losses (it never throws them at the process). */
export type StoreErrorListener = (message: string, error: unknown) => void;

export function defaultTokenStoreFile(dataDir: string): string {
  return path.join(dataDir, 'auth.db');
}

export function readTokenStoreSettings(source: ConfigSource, dataDir: string): TokenStoreSettings {
  const connection = source.string('Auth:Store:ConnectionString').trim();
  return {
    provider: source.choice('Auth:Store:Provider', TOKEN_STORE_PROVIDERS),
    file: source.string('Auth:Store:Path') || defaultTokenStoreFile(dataDir),
    connectionString: connection === '' ? null : connection,
    timeoutMs: source.int('Auth:Store:CommandTimeoutMs'),
  };
}

/** The pool of a PostgreSQL store: error listener, deadlines, tables created now or when the database answers. */
export function openStorePool(settings: TokenStoreSettings, name: string, max: number, onError?: StoreErrorListener): StorePool {
  if (!settings.connectionString) throw new Error('Auth:Store:ConnectionString is required for Auth:Store:Provider Postgres');
  return new StorePool({ connectionString: settings.connectionString, name, max, timeoutMs: settings.timeoutMs, ...(onError ? { onError } : {}) });
}

export async function openTokenStore(settings: TokenStoreSettings, onError?: StoreErrorListener): Promise<TokenStore> {
  switch (settings.provider) {
    case 'Sqlite': {
      const store = new SqliteTokenStore(settings.file);
      await store.migrate();
      return store;
    }
    case 'Postgres': {
      const pool = openStorePool(settings, 'Token store', 5, onError);
      const store = new PostgresTokenStore(pool, () => pool.close());
      await pool.prepare((db) => store.migrate(db));
      return store;
    }
    case 'SqlServer':
      // Seam: a SqlServerTokenStore implements TokenStore over `mssql` (same tables, T-SQL
      // OUTPUT INSERTED for the audit). Not built yet; refuse clearly instead of faking it.
      throw new Error('Auth:Store:Provider SqlServer is not implemented yet; use Sqlite or Postgres');
  }
}
