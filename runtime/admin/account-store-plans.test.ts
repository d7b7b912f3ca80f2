/**
 * What one open request costs the account store: issuing a sign-in CSRF value (GET
 * /ui/api/auth/csrf, no sign-in needed) and counting a failed sign-in for a name without an
 * account. Old behaviour: every issuance deleted expired values by a full scan and then sorted up to
 * SIGN_IN_CSRF_KEPT (10,000) rows to find the ones beyond the cap. Now each statement of those two
 * steps finds its rows through an index (expiry; issue order): the database's own plan says so,
 * with full scans made as dear as the planner allows, so a missing index shows as a scan or a sort.
 * On PostgreSQL the table is first made the way an older Wharf made it (no issue-order column):
 * the migration adds what the cap needs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgres } from '../../test/setup/postgres.js';
import type { SqliteDatabase } from '../auth/store/sqlite-database.js';
import { SIGN_IN_CSRF_KEPT, UNKNOWN_NAMES_KEPT } from './account-store.js';
import type { AccountStore } from './account-store.js';
import { PostgresAccountStore } from './postgres-account-store.js';
import { SqliteAccountStore } from './sqlite-account-store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'wharf-account-plans-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** The statements one issuance and one unknown-name attempt run (a few of each, so the caps apply). */
async function exercise(store: AccountStore): Promise<void> {
  for (let i = 0; i < 3; i++) await store.insertCsrf(`value-${i}`, 10_000 + i, 1_000 + i, SIGN_IN_CSRF_KEPT);
  for (let i = 0; i < 3; i++) await store.addUnknownNameAttempt(`nobody-${i % 2}`, UNKNOWN_NAMES_KEPT);
}

describe('sqlite', () => {
  it('an issuance and an unknown-name attempt search indexes only: no full scan, no sort', async () => {
    const store = new SqliteAccountStore(path.join(dir, 'auth.db'));
    cleanups.push(() => store.close());
    await store.migrate();
    const db = (store as unknown as { db: SqliteDatabase }).db;
    const seen: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = (source: string) => {
      seen.push(source);
      return prepare(source);
    };
    await exercise(store);
    db.prepare = prepare;
    const statements = [...new Set(seen)].filter((sql) => /console_(csrf|unknown_names)/.test(sql));
    expect(statements.length).toBeGreaterThanOrEqual(4);
    for (const sql of statements) {
      const params = [...sql.matchAll(/\?/g)].map(() => 1);
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join('\n');
      expect({ sql, plan }).not.toMatchObject({ plan: expect.stringMatching(/\bSCAN (console_csrf|console_unknown_names)\b|TEMP B-TREE/) });
    }
  });
});

describe('postgres', () => {
  it('an issuance and an unknown-name attempt use indexes only (sequential scans off): no Seq Scan, no Sort; an older table is migrated', async () => {
    const server = await startPostgres({ sql: 'SELECT 1' });
    cleanups.push(() => server.stop());
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    cleanups.push(() => client.end());
    // the table as an older Wharf made it, with a value in it
    await client.query('CREATE TABLE wharf_console_csrf (value_hash TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)');
    await client.query("INSERT INTO wharf_console_csrf VALUES ('old', 99000)");
    const seen: { text: string; params: unknown[] }[] = [];
    const store = new PostgresAccountStore({
      query: async (text: string, params: unknown[] = []) => {
        seen.push({ text, params });
        return client.query(text, params);
      },
    });
    await store.migrate();
    seen.length = 0;
    await exercise(store);
    expect(await store.consumeCsrf('old', 1_000)).toBe(true);
    await client.query('SET enable_seqscan = off');
    const statements = seen.filter(({ text }) => /wharf_console_(csrf|unknown_names)/.test(text) && /^\s*(DELETE|INSERT|UPDATE)/.test(text));
    expect(statements.length).toBeGreaterThanOrEqual(4);
    for (const { text, params } of statements) {
      const { rows } = await client.query(`EXPLAIN ${text}`, params);
      const plan = (rows as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN']).join('\n');
      expect({ text, plan }).not.toMatchObject({ plan: expect.stringMatching(/Seq Scan on wharf_console_(csrf|unknown_names)|Sort/) });
    }
  }, 60_000);
});
