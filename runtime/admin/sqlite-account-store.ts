/** Accounts and sessions in the token store's SQLite file (a second connection to the same file). */
import { openSqlite } from '../auth/store/sqlite-database.js';
import type { SqliteDatabase } from '../auth/store/sqlite-database.js';
import { AccountExistsError, IdentityLinkedError, accountFromRaw, identityFromRaw, patchEntries, sessionFromRaw } from './account-store.js';
import type { AccountPatch, AccountRow, AccountStore, IdentityRow, NewAccountRow, RawAccount, RawIdentity, RawSession, SessionRow } from './account-store.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS console_accounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  role TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  must_change_password INTEGER NOT NULL DEFAULT 0,
  disabled INTEGER NOT NULL DEFAULT 0,
  failed_attempts INTEGER NOT NULL DEFAULT 0,
  locked_until INTEGER,
  created_at INTEGER NOT NULL,
  last_sign_in_at INTEGER
);
CREATE TABLE IF NOT EXISTS console_sessions (
  id_hash TEXT PRIMARY KEY,
  account_id INTEGER NOT NULL,
  csrf TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS console_identities (
  account_id INTEGER NOT NULL,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  linked_at INTEGER NOT NULL,
  PRIMARY KEY (issuer, subject),
  UNIQUE (account_id, issuer)
);
CREATE TABLE IF NOT EXISTS console_csrf (
  value_hash TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS console_csrf_expires ON console_csrf (expires_at);
CREATE TABLE IF NOT EXISTS console_unknown_names (
  name_key TEXT PRIMARY KEY,
  failed_attempts INTEGER NOT NULL DEFAULT 0,
  locked_until INTEGER
);
`;

export class SqliteAccountStore implements AccountStore {
  private readonly db: SqliteDatabase;

  constructor(readonly file: string) {
    this.db = openSqlite(file);
  }

  async migrate(): Promise<void> {
    this.db.exec(SCHEMA);
  }

  async list(): Promise<AccountRow[]> {
    return (this.db.prepare('SELECT * FROM console_accounts ORDER BY id').all() as RawAccount[]).map(accountFromRaw);
  }

  async findByName(username: string): Promise<AccountRow | null> {
    const raw = this.db.prepare('SELECT * FROM console_accounts WHERE username = ?').get(username) as RawAccount | undefined;
    return raw ? accountFromRaw(raw) : null;
  }

  async findById(id: number): Promise<AccountRow | null> {
    const raw = this.db.prepare('SELECT * FROM console_accounts WHERE id = ?').get(id) as RawAccount | undefined;
    return raw ? accountFromRaw(raw) : null;
  }

  async insert(row: NewAccountRow): Promise<AccountRow> {
    try {
      const result = this.db
        .prepare('INSERT INTO console_accounts (username, role, password_hash, must_change_password, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(row.username, row.role, row.passwordHash, row.mustChangePassword ? 1 : 0, row.createdAt);
      return (await this.findById(Number(result.lastInsertRowid)))!;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new AccountExistsError(row.username);
      throw error;
    }
  }

  async update(id: number, patch: AccountPatch): Promise<AccountRow | null> {
    const entries = patchEntries(patch);
    if (entries.length > 0) {
      const sets = entries.map(([column]) => `${column} = ?`).join(', ');
      this.db.prepare(`UPDATE console_accounts SET ${sets} WHERE id = ?`).run(...entries.map(([, value]) => value), id);
    }
    return this.findById(id);
  }

  async addFailedAttempt(id: number): Promise<number> {
    const row = this.db.prepare('UPDATE console_accounts SET failed_attempts = failed_attempts + 1 WHERE id = ? RETURNING failed_attempts').get(id) as
      | { failed_attempts: number }
      | undefined;
    return Number(row?.failed_attempts ?? 0);
  }

  async delete(id: number): Promise<boolean> {
    this.db.prepare('DELETE FROM console_sessions WHERE account_id = ?').run(id);
    this.db.prepare('DELETE FROM console_identities WHERE account_id = ?').run(id);
    return this.db.prepare('DELETE FROM console_accounts WHERE id = ?').run(id).changes > 0;
  }

  async insertSession(row: SessionRow, keepPerAccount: number): Promise<void> {
    this.db.prepare('DELETE FROM console_sessions WHERE expires_at <= ?').run(row.createdAt);
    this.db
      .prepare('INSERT INTO console_sessions (id_hash, account_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(row.idHash, row.accountId, row.csrf, row.createdAt, row.expiresAt);
    this.db
      .prepare(
        'DELETE FROM console_sessions WHERE account_id = ? AND id_hash NOT IN (SELECT id_hash FROM console_sessions WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)',
      )
      .run(row.accountId, row.accountId, keepPerAccount);
  }

  async findSession(idHash: string): Promise<SessionRow | null> {
    const raw = this.db.prepare('SELECT * FROM console_sessions WHERE id_hash = ?').get(idHash) as RawSession | undefined;
    return raw ? sessionFromRaw(raw) : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    this.db.prepare('DELETE FROM console_sessions WHERE id_hash = ?').run(idHash);
  }

  async deleteSessionsOf(accountId: number): Promise<void> {
    this.db.prepare('DELETE FROM console_sessions WHERE account_id = ?').run(accountId);
  }

  async insertCsrf(valueHash: string, expiresAt: number, now: number, keep: number): Promise<void> {
    // both deletes walk an index over the rows they remove only (expires_at; rowid): no sort, no count
    this.db.prepare('DELETE FROM console_csrf WHERE expires_at <= ?').run(now);
    const { lastInsertRowid } = this.db.prepare('INSERT INTO console_csrf (value_hash, expires_at) VALUES (?, ?)').run(valueHash, expiresAt);
    this.db.prepare('DELETE FROM console_csrf WHERE rowid <= ?').run(Number(lastInsertRowid) - keep);
  }

  async consumeCsrf(valueHash: string, now: number): Promise<boolean> {
    return this.db.prepare('DELETE FROM console_csrf WHERE value_hash = ? AND expires_at > ?').run(valueHash, now).changes === 1;
  }

  async unknownNameLock(nameKey: string): Promise<number | null> {
    const row = this.db.prepare('SELECT locked_until FROM console_unknown_names WHERE name_key = ?').get(nameKey) as { locked_until: number | null } | undefined;
    return row?.locked_until ?? null;
  }

  async addUnknownNameAttempt(nameKey: string, keep: number): Promise<number> {
    const row = this.db
      .prepare(
        'INSERT INTO console_unknown_names (name_key, failed_attempts) VALUES (?, 1) ON CONFLICT (name_key) DO UPDATE SET failed_attempts = failed_attempts + 1 RETURNING failed_attempts, rowid',
      )
      .get(nameKey) as { failed_attempts: number; rowid: number };
    this.db.prepare('DELETE FROM console_unknown_names WHERE rowid <= ?').run(Number(row.rowid) - keep);
    return Number(row.failed_attempts);
  }

  async lockUnknownName(nameKey: string, until: number): Promise<void> {
    this.db.prepare('UPDATE console_unknown_names SET failed_attempts = 0, locked_until = ? WHERE name_key = ?').run(until, nameKey);
  }

  async findByIdentity(issuer: string, subject: string): Promise<AccountRow | null> {
    const raw = this.db
      .prepare('SELECT a.* FROM console_accounts a JOIN console_identities i ON i.account_id = a.id WHERE i.issuer = ? AND i.subject = ?')
      .get(issuer, subject) as RawAccount | undefined;
    return raw ? accountFromRaw(raw) : null;
  }

  async identitiesOf(accountId: number): Promise<IdentityRow[]> {
    return (this.db.prepare('SELECT * FROM console_identities WHERE account_id = ? ORDER BY issuer').all(accountId) as RawIdentity[]).map(identityFromRaw);
  }

  async linkIdentity(row: IdentityRow): Promise<void> {
    try {
      this.db
        .prepare('INSERT INTO console_identities (account_id, issuer, subject, linked_at) VALUES (?, ?, ?, ?)')
        .run(row.accountId, row.issuer, row.subject, row.linkedAt);
    } catch (error) {
      if (String((error as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')) throw new IdentityLinkedError();
      throw error;
    }
  }

  async unlinkIdentity(accountId: number, issuer: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM console_identities WHERE account_id = ? AND issuer = ?').run(accountId, issuer).changes > 0;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
