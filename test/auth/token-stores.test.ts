/**
 * One contract, run against every store: SQLite (better-sqlite3 file) and a real, throw-away
 * PostgreSQL server through a pg.Pool (test/setup/postgres.ts), as in production.
 */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgres } from '../setup/postgres.js';
import { PostgresTokenStore } from '../../runtime/auth/store/postgres-store.js';
import { SqliteTokenStore } from '../../runtime/auth/store/sqlite-store.js';
import { UsernameTakenError } from '../../runtime/auth/store/token-store.js';
import type { AuditInput, NewTokenRow, TokenStore } from '../../runtime/auth/store/token-store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'wharf-store-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const STORES: [string, () => Promise<TokenStore>][] = [
  [
    'sqlite',
    async () => {
      const store = new SqliteTokenStore(path.join(dir, 'auth.db'));
      cleanups.push(() => store.close());
      return store;
    },
  ],
  [
    'postgres',
    async () => {
      const server = await startPostgres({ sql: 'SELECT 1' });
      const pool = new pg.Pool({ connectionString: server.url, max: 2 });
      const store = new PostgresTokenStore(pool, () => pool.end());
      await store.migrate();
      cleanups.push(async () => {
        await store.close();
        await server.stop();
      });
      return store;
    },
  ],
];

function row(username: string, lookupId: string): NewTokenRow {
  return {
    username,
    description: 'test',
    createdAt: 1_000,
    expiresAt: null,
    allowedScopes: 'read',
    allowedEnvironments: 'dev,test',
    lookupId,
    tokenHash: 'ab'.repeat(32),
  };
}

const audit = (operation: AuditInput['operation']): AuditInput => ({
  operation,
  timestamp: 2_000,
  details: operation,
  ipAddress: '127.0.0.1',
  userAgent: 'vitest',
});

describe.each(STORES)('%s token store', (_name, open) => {
  it('inserts, finds, lists, revokes, unarchives, rotates and audits', async () => {
    const store = await open();
    await store.migrate(); // idempotent
    const created = await store.insert(row('alice', 'aaaaaaaaaaaa'), audit('Created'));
    expect(created).toEqual({ ...row('alice', 'aaaaaaaaaaaa'), id: created.id, revokedAt: null });
    expect(await store.findByLookupId('aaaaaaaaaaaa')).toEqual(created);
    expect(await store.findById(created.id)).toEqual(created);
    expect(await store.findByLookupId('bbbbbbbbbbbb')).toBeNull();
    await expect(store.insert(row('ALICE', 'cccccccccccc'), audit('Created'))).rejects.toBeInstanceOf(UsernameTakenError);

    const bob = await store.insert(row('bob', 'dddddddddddd'), audit('Created'));
    expect(await store.count()).toBe(2);
    expect((await store.setRevoked(bob.id, 5_000, audit('Revoked')))?.revokedAt).toBe(5_000);
    expect(await store.setRevoked(bob.id, 6_000, audit('Revoked'))).toBeNull();
    expect((await store.list(false)).map((r) => r.username)).toEqual(['alice']);
    expect((await store.list(true)).map((r) => r.username)).toEqual(['alice', 'bob']);
    const secret = { lookupId: 'eeeeeeeeeeee', tokenHash: 'cd'.repeat(32) };
    expect(await store.rotate(bob.id, secret, { ...audit('Created'), timestamp: 7_000 })).toBeNull(); // revoked
    expect(await store.rotate(999, secret, audit('Created'))).toBeNull();
    expect((await store.setRevoked(bob.id, null, audit('Unarchived')))?.revokedAt).toBeNull();
    await expect(store.insert(row('Bob', 'gggggggggggg'), audit('Created'))).rejects.toBeInstanceOf(UsernameTakenError);

    const rotated = await store.rotate(created.id, { lookupId: 'ffffffffffff', tokenHash: 'ef'.repeat(32) }, { ...audit('Created'), timestamp: 7_000, details: 'successor' });
    expect(rotated!.previous).toEqual({ ...created, revokedAt: 7_000 });
    expect(rotated!.next).toEqual({ ...created, id: rotated!.next.id, createdAt: 7_000, lookupId: 'ffffffffffff', tokenHash: 'ef'.repeat(32) });
    expect(rotated!.next.id).toBeGreaterThan(bob.id);
    expect(await store.findByLookupId('aaaaaaaaaaaa')).toEqual(rotated!.previous);
    expect(await store.rotate(created.id, secret, audit('Created'))).toBeNull(); // already rotated
    expect(await store.setRevoked(999, 1, audit('Revoked'))).toBeNull();
    // one active token per username: the rotated one cannot come back while its successor is active
    await expect(store.setRevoked(created.id, null, audit('Unarchived'))).rejects.toBeInstanceOf(UsernameTakenError);
    expect((await store.list(false)).map((r) => [r.id, r.username])).toEqual([[bob.id, 'bob'], [rotated!.next.id, 'alice']]);
    // a username a revoked token has is still taken for a new token (only rotation reuses it)
    await expect(store.insert(row('alice', 'hhhhhhhhhhhh'), audit('Created'))).rejects.toBeInstanceOf(UsernameTakenError);

    expect((await store.audit(bob.id, 50)).map((a) => a.operation)).toEqual(['Unarchived', 'Revoked', 'Created']);
    const [first] = await store.audit(created.id, 1);
    expect(first).toEqual({
      id: first!.id,
      tokenId: created.id,
      operation: 'Revoked',
      timestamp: 7_000,
      details: `Token rotated; replaced by token ${rotated!.next.id}`,
      ipAddress: '127.0.0.1',
      userAgent: 'vitest',
    });
    expect(await store.audit(rotated!.next.id, 50)).toEqual([
      { id: expect.any(Number), tokenId: rotated!.next.id, operation: 'Created', timestamp: 7_000, details: 'successor', ipAddress: '127.0.0.1', userAgent: 'vitest' },
    ]);
  });
});

describe('SQLite token store file permissions', () => {
  it('creates its folder 0700 and auth.db (with -wal and -shm) 0600', async () => {
    const folder = path.join(dir, 'private', 'data');
    const file = path.join(folder, 'auth.db');
    const store = new SqliteTokenStore(file);
    try {
      await store.insert(row('perm-user', 'permlookup01'), audit('Created'));
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(statSync(f).mode & 0o777, f).toBe(0o600);
    } finally {
      await store.close();
    }
  });

  it('narrows an existing world-readable auth.db to 0600', async () => {
    const file = path.join(dir, 'old.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    const store = new SqliteTokenStore(file);
    await store.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('SQLite token store made before rotation created successors', () => {
  it('is rebuilt once (table-wide unique username -> unique among active tokens), keeping ids, rows and audit', async () => {
    const file = path.join(dir, 'old-auth.db');
    const { openSqlite } = await import('../../runtime/auth/store/sqlite-database.js');
    const old = openSqlite(file);
    old.exec(`CREATE TABLE tokens (id INTEGER PRIMARY KEY AUTOINCREMENT, username TEXT NOT NULL UNIQUE COLLATE NOCASE,
      description TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL, expires_at INTEGER, revoked_at INTEGER,
      allowed_scopes TEXT NOT NULL, allowed_environments TEXT NOT NULL, lookup_id TEXT NOT NULL UNIQUE, token_hash TEXT NOT NULL);
      CREATE TABLE token_audit (id INTEGER PRIMARY KEY AUTOINCREMENT, token_id INTEGER NOT NULL REFERENCES tokens(id),
      operation TEXT NOT NULL, timestamp INTEGER NOT NULL, details TEXT NOT NULL DEFAULT '', ip_address TEXT, user_agent TEXT);
      INSERT INTO tokens VALUES (7, 'carol', 'old', 1000, NULL, NULL, '*', '*', 'ccccccccccc1', '${'ab'.repeat(32)}');
      INSERT INTO token_audit VALUES (3, 7, 'Created', 1000, 'Token created for carol', NULL, NULL);`);
    old.close();

    const store = new SqliteTokenStore(file);
    cleanups.push(() => store.close());
    const carol = await store.findById(7);
    expect(carol).toMatchObject({ id: 7, username: 'carol', lookupId: 'ccccccccccc1' });
    const rotated = await store.rotate(7, { lookupId: 'ccccccccccc2', tokenHash: 'cd'.repeat(32) }, { ...audit('Created'), timestamp: 9_000 });
    expect(rotated!.next).toMatchObject({ id: 8, username: 'carol' });
    expect((await store.audit(7, 10)).map((a) => [a.id, a.operation])).toEqual([[4, 'Revoked'], [3, 'Created']]);
    await store.migrate(); // idempotent on the rebuilt table
    const reopened = new SqliteTokenStore(file);
    cleanups.push(() => reopened.close());
    expect((await reopened.list(true)).map((r) => [r.id, r.username, r.revokedAt])).toEqual([[7, 'carol', 9_000], [8, 'carol', null]]);
  });
});

describe('PostgreSQL token store made before rotation created successors', () => {
  it('drops the table-wide username index at migrate, so a rotation can keep the username', async () => {
    const server = await startPostgres({ sql: 'SELECT 1' });
    const pool = new pg.Pool({ connectionString: server.url, max: 2 });
    const store = new PostgresTokenStore(pool, () => pool.end());
    cleanups.push(async () => {
      await store.close();
      await server.stop();
    });
    await pool.query(`CREATE TABLE wharf_tokens (id BIGSERIAL PRIMARY KEY, username TEXT NOT NULL, description TEXT NOT NULL DEFAULT '',
      created_at BIGINT NOT NULL, expires_at BIGINT, revoked_at BIGINT, allowed_scopes TEXT NOT NULL, allowed_environments TEXT NOT NULL,
      lookup_id TEXT NOT NULL UNIQUE, token_hash TEXT NOT NULL)`);
    await pool.query('CREATE UNIQUE INDEX wharf_tokens_username ON wharf_tokens (lower(username))');
    await store.migrate();
    const dave = await store.insert(row('dave', 'dddddddddd01'), audit('Created'));
    const rotated = await store.rotate(dave.id, { lookupId: 'dddddddddd02', tokenHash: 'cd'.repeat(32) }, audit('Created'));
    expect(rotated!.next).toMatchObject({ username: 'dave', lookupId: 'dddddddddd02' });
    const { rows } = await pool.query("SELECT indexname FROM pg_indexes WHERE tablename = 'wharf_tokens' AND indexname LIKE '%username%'");
    expect(rows).toEqual([{ indexname: 'wharf_tokens_active_username' }]);
  }, 120_000);
});
