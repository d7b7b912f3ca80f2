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
    expect(await store.replaceSecret(bob.id, 'eeeeeeeeeeee', 'cd'.repeat(32), audit('Rotated'))).toBeNull();
    expect((await store.setRevoked(bob.id, null, audit('Unarchived')))?.revokedAt).toBeNull();

    const rotated = await store.replaceSecret(created.id, 'ffffffffffff', 'ef'.repeat(32), audit('Rotated'));
    expect(rotated).toMatchObject({ id: created.id, lookupId: 'ffffffffffff', tokenHash: 'ef'.repeat(32) });
    expect(await store.findByLookupId('aaaaaaaaaaaa')).toBeNull();
    expect(await store.setRevoked(999, 1, audit('Revoked'))).toBeNull();

    expect((await store.audit(bob.id, 50)).map((a) => a.operation)).toEqual(['Unarchived', 'Revoked', 'Created']);
    const [first] = await store.audit(created.id, 1);
    expect(first).toEqual({
      id: first!.id,
      tokenId: created.id,
      operation: 'Rotated',
      timestamp: 2_000,
      details: 'Rotated',
      ipAddress: '127.0.0.1',
      userAgent: 'vitest',
    });
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
