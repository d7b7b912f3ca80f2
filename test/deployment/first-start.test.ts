/**
 * Several instances starting at once on an empty PostgreSQL (the shared token store and console
 * accounts): each creates the tables it needs, and none fails because another does the same at
 * the same moment (without a lock, CREATE TABLE IF NOT EXISTS races on pg_type and one instance
 * exits with "duplicate key value violates unique constraint"), and exactly one of them creates the
 * first console administrator (and logs its one-time password).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountService } from '../../runtime/admin/accounts.js';
import { PostgresAccountStore } from '../../runtime/admin/postgres-account-store.js';
import { PostgresTokenStore } from '../../runtime/auth/store/postgres-store.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres({ sql: 'SELECT 1' });
}, 60_000);
afterAll(() => server?.stop());

describe('the shared stores on an empty database', () => {
  it('eight instances creating the tables at once all succeed', async () => {
    const round = 1;
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE first_start_${round}`);
    await admin.end();
    const url = server.url.replace(/\/postgres$/, `/first_start_${round}`);
    const pools = Array.from({ length: 8 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    try {
      const results = await Promise.allSettled(
        pools.map(async (pool) => {
          await new PostgresTokenStore(pool).migrate();
          await new PostgresAccountStore(pool).migrate();
        }),
      );
      expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('eight instances on an empty store: exactly one creates the first administrator', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE first_admin');
    await admin.end();
    const url = server.url.replace(/\/postgres$/, '/first_admin');
    const pools = Array.from({ length: 8 }, () => new pg.Pool({ connectionString: url, max: 1 }));
    try {
      const stores = pools.map((pool) => new PostgresAccountStore(pool));
      await stores[0]!.migrate();
      const created = await Promise.all(stores.map((store) => new AccountService(store).ensureFirstAdmin(null)));
      const made = created.filter((first) => first !== null);
      expect(made).toHaveLength(1);
      expect((await stores[0]!.list()).map((account) => account.username)).toEqual([made[0]!.username]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });
});
