/** Opens the account store where the token store lives (Auth:Store:Provider / Path / ConnectionString). */
import { openStorePool } from '../auth/store/open-store.js';
import type { StoreErrorListener, TokenStoreSettings } from '../auth/store/open-store.js';
import type { AccountStore } from './account-store.js';
import { PostgresAccountStore } from './postgres-account-store.js';
import { SqliteAccountStore } from './sqlite-account-store.js';

/** On PostgreSQL: the store pool's error listener and deadlines (runtime/auth/store/store-pool.ts). */
export async function openAccountStore(settings: TokenStoreSettings, onError?: StoreErrorListener): Promise<AccountStore> {
  switch (settings.provider) {
    case 'Sqlite': {
      const store = new SqliteAccountStore(settings.file);
      await store.migrate();
      return store;
    }
    case 'Postgres': {
      const pool = openStorePool(settings, 'Account store', 3, onError);
      const store = new PostgresAccountStore(pool, () => pool.close());
      await pool.prepare((db) => store.migrate(db));
      return store;
    }
    case 'SqlServer':
      throw new Error('Auth:Store:Provider SqlServer is not implemented yet; use Sqlite or Postgres');
  }
}
