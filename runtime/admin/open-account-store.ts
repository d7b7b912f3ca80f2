/** Opens the account store where the token store lives (Auth:Store:Provider / Path / ConnectionString). */
import pg from 'pg';
import type { TokenStoreSettings } from '../auth/store/open-store.js';
import type { AccountStore } from './account-store.js';
import { PostgresAccountStore } from './postgres-account-store.js';
import { SqliteAccountStore } from './sqlite-account-store.js';

export async function openAccountStore(settings: TokenStoreSettings): Promise<AccountStore> {
  let store: AccountStore;
  switch (settings.provider) {
    case 'Sqlite':
      store = new SqliteAccountStore(settings.file);
      break;
    case 'Postgres': {
      if (!settings.connectionString) throw new Error('Auth:Store:ConnectionString is required for Auth:Store:Provider Postgres');
      const pool = new pg.Pool({ connectionString: settings.connectionString, max: 3 });
      store = new PostgresAccountStore(pool, () => pool.end());
      break;
    }
    case 'SqlServer':
      throw new Error('Auth:Store:Provider SqlServer is not implemented yet; use Sqlite or Postgres');
  }
  await store.migrate();
  return store;
}
