/**
 * Chooses and opens the token store from the settings:
 *   Auth:Store:Provider          Sqlite (default) | Postgres | SqlServer
 *   Auth:Store:Path              SQLite file, default <data folder>/auth.db
 *   Auth:Store:ConnectionString  for Postgres / SqlServer (secret; never logged)
 */
import path from 'node:path';
import pg from 'pg';
import type { ConfigSource } from '../../settings/config-source.js';
import { PostgresTokenStore } from './postgres-store.js';
import { SqliteTokenStore } from './sqlite-store.js';
import type { TokenStore } from './token-store.js';

export const TOKEN_STORE_PROVIDERS = ['Sqlite', 'Postgres', 'SqlServer'] as const;
export type TokenStoreProvider = (typeof TOKEN_STORE_PROVIDERS)[number];

export interface TokenStoreSettings {
  readonly provider: TokenStoreProvider;
  readonly file: string;
  readonly connectionString: string | null;
}

export function defaultTokenStoreFile(dataDir: string): string {
  return path.join(dataDir, 'auth.db');
}

export function readTokenStoreSettings(source: ConfigSource, dataDir: string): TokenStoreSettings {
  const connection = source.string('Auth:Store:ConnectionString').trim();
  return {
    provider: source.choice('Auth:Store:Provider', TOKEN_STORE_PROVIDERS),
    file: source.string('Auth:Store:Path') || defaultTokenStoreFile(dataDir),
    connectionString: connection === '' ? null : connection,
  };
}

export async function openTokenStore(settings: TokenStoreSettings): Promise<TokenStore> {
  switch (settings.provider) {
    case 'Sqlite': {
      const store = new SqliteTokenStore(settings.file);
      await store.migrate();
      return store;
    }
    case 'Postgres': {
      if (!settings.connectionString) throw new Error('Auth:Store:ConnectionString is required for Auth:Store:Provider Postgres');
      const pool = new pg.Pool({ connectionString: settings.connectionString, max: 5 });
      const store = new PostgresTokenStore(pool, () => pool.end());
      await store.migrate();
      return store;
    }
    case 'SqlServer':
      // Seam: a SqlServerTokenStore implements TokenStore over `mssql` (same tables, T-SQL
      // OUTPUT INSERTED for the audit). Not built yet; refuse clearly instead of faking it.
      throw new Error('Auth:Store:Provider SqlServer is not implemented yet; use Sqlite or Postgres');
  }
}
