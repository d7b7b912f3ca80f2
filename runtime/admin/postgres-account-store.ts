/** Accounts and sessions in the token store's PostgreSQL database (tables wharf_console_*). */
import { createSchema } from '../auth/store/pg-schema.js';
import type { PgQueryable } from '../auth/store/pg-schema.js';
import { AccountExistsError, IdentityLinkedError, accountFromRaw, identityFromRaw, patchEntries, sessionFromRaw } from './account-store.js';
import type { AccountPatch, AccountRow, AccountStore, IdentityRow, NewAccountRow, RawAccount, RawIdentity, RawSession, SessionRow } from './account-store.js';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS wharf_console_accounts (
    id BIGSERIAL PRIMARY KEY,
    username TEXT NOT NULL,
    role TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    must_change_password INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    failed_attempts INTEGER NOT NULL DEFAULT 0,
    locked_until BIGINT,
    created_at BIGINT NOT NULL,
    last_sign_in_at BIGINT
  )`,
  `CREATE UNIQUE INDEX IF NOT EXISTS wharf_console_accounts_username ON wharf_console_accounts (lower(username))`,
  `CREATE TABLE IF NOT EXISTS wharf_console_sessions (
    id_hash TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL,
    csrf TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS wharf_console_identities (
    account_id BIGINT NOT NULL,
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    linked_at BIGINT NOT NULL,
    PRIMARY KEY (issuer, subject),
    UNIQUE (account_id, issuer)
  )`,
  `CREATE TABLE IF NOT EXISTS wharf_console_csrf (
    value_hash TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
  )`,
  // issue order, so the cap drops the oldest through an index (a store made before it gets it here)
  `DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'wharf_console_csrf' AND column_name = 'seq') THEN
      ALTER TABLE wharf_console_csrf ADD COLUMN seq BIGSERIAL;
    END IF;
  END $$`,
  `CREATE INDEX IF NOT EXISTS wharf_console_csrf_seq ON wharf_console_csrf (seq)`,
  `CREATE INDEX IF NOT EXISTS wharf_console_csrf_expires ON wharf_console_csrf (expires_at)`,
  `CREATE TABLE IF NOT EXISTS wharf_console_unknown_names (
    name_key TEXT PRIMARY KEY,
    failed_attempts INTEGER NOT NULL DEFAULT 0,
    locked_until BIGINT,
    seq BIGSERIAL
  )`,
  `CREATE INDEX IF NOT EXISTS wharf_console_unknown_names_seq ON wharf_console_unknown_names (seq)`,
];

export class PostgresAccountStore implements AccountStore {
  constructor(
    private readonly db: PgQueryable,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  /** `db`: where to run the statements (StorePool.prepare passes its connection without the migration step). */
  async migrate(db: PgQueryable = this.db): Promise<void> {
    await createSchema(db, SCHEMA);
  }

  private async one(sql: string, params: unknown[]): Promise<AccountRow | null> {
    const { rows } = await this.db.query(sql, params);
    const raw = rows[0] as RawAccount | undefined;
    return raw ? accountFromRaw(raw) : null;
  }

  async list(): Promise<AccountRow[]> {
    const { rows } = await this.db.query('SELECT * FROM wharf_console_accounts ORDER BY id');
    return rows.map((raw) => accountFromRaw(raw as RawAccount));
  }

  findByName(username: string): Promise<AccountRow | null> {
    return this.one('SELECT * FROM wharf_console_accounts WHERE lower(username) = lower($1)', [username]);
  }

  findById(id: number): Promise<AccountRow | null> {
    return this.one('SELECT * FROM wharf_console_accounts WHERE id = $1', [id]);
  }

  async insert(row: NewAccountRow): Promise<AccountRow> {
    try {
      return (await this.one(
        `INSERT INTO wharf_console_accounts (username, role, password_hash, must_change_password, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING *`,
        [row.username, row.role, row.passwordHash, row.mustChangePassword ? 1 : 0, row.createdAt],
      ))!;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new AccountExistsError(row.username);
      throw error;
    }
  }

  async update(id: number, patch: AccountPatch): Promise<AccountRow | null> {
    const entries = patchEntries(patch);
    if (entries.length === 0) return this.findById(id);
    const sets = entries.map(([column], index) => `${column} = $${index + 1}`).join(', ');
    return this.one(`UPDATE wharf_console_accounts SET ${sets} WHERE id = $${entries.length + 1} RETURNING *`, [
      ...entries.map(([, value]) => value),
      id,
    ]);
  }

  async addFailedAttempt(id: number): Promise<number> {
    const { rows } = await this.db.query('UPDATE wharf_console_accounts SET failed_attempts = failed_attempts + 1 WHERE id = $1 RETURNING failed_attempts', [id]);
    return Number((rows[0] as { failed_attempts?: number | string } | undefined)?.failed_attempts ?? 0);
  }

  async delete(id: number): Promise<boolean> {
    await this.db.query('DELETE FROM wharf_console_sessions WHERE account_id = $1', [id]);
    await this.db.query('DELETE FROM wharf_console_identities WHERE account_id = $1', [id]);
    const { rows } = await this.db.query('DELETE FROM wharf_console_accounts WHERE id = $1 RETURNING id', [id]);
    return rows.length > 0;
  }

  async insertSession(row: SessionRow, keepPerAccount: number): Promise<void> {
    await this.db.query('DELETE FROM wharf_console_sessions WHERE expires_at <= $1', [row.createdAt]);
    await this.db.query(
      'INSERT INTO wharf_console_sessions (id_hash, account_id, csrf, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [row.idHash, row.accountId, row.csrf, row.createdAt, row.expiresAt],
    );
    await this.db.query(
      'DELETE FROM wharf_console_sessions WHERE account_id = $1 AND id_hash NOT IN (SELECT id_hash FROM wharf_console_sessions WHERE account_id = $1 ORDER BY created_at DESC, id_hash DESC LIMIT $2)',
      [row.accountId, keepPerAccount],
    );
  }

  async findSession(idHash: string): Promise<SessionRow | null> {
    const { rows } = await this.db.query('SELECT * FROM wharf_console_sessions WHERE id_hash = $1', [idHash]);
    const raw = rows[0] as RawSession | undefined;
    return raw ? sessionFromRaw(raw) : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.query('DELETE FROM wharf_console_sessions WHERE id_hash = $1', [idHash]);
  }

  async deleteSessionsOf(accountId: number): Promise<void> {
    await this.db.query('DELETE FROM wharf_console_sessions WHERE account_id = $1', [accountId]);
  }

  async insertCsrf(valueHash: string, expiresAt: number, now: number, keep: number): Promise<void> {
    // both deletes walk an index over the rows they remove only (expires_at; seq): no sort, no count
    await this.db.query('DELETE FROM wharf_console_csrf WHERE expires_at <= $1', [now]);
    const { rows } = await this.db.query('INSERT INTO wharf_console_csrf (value_hash, expires_at) VALUES ($1, $2) RETURNING seq', [valueHash, expiresAt]);
    await this.db.query('DELETE FROM wharf_console_csrf WHERE seq <= $1', [Number((rows[0] as { seq: number | string }).seq) - keep]);
  }

  async consumeCsrf(valueHash: string, now: number): Promise<boolean> {
    const { rows } = await this.db.query('DELETE FROM wharf_console_csrf WHERE value_hash = $1 AND expires_at > $2 RETURNING value_hash', [valueHash, now]);
    return rows.length === 1;
  }

  async unknownNameLock(nameKey: string): Promise<number | null> {
    const { rows } = await this.db.query('SELECT locked_until FROM wharf_console_unknown_names WHERE name_key = $1', [nameKey]);
    const until = (rows[0] as { locked_until: number | string | null } | undefined)?.locked_until ?? null;
    return until === null ? null : Number(until);
  }

  async addUnknownNameAttempt(nameKey: string, keep: number): Promise<number> {
    const { rows } = await this.db.query(
      `INSERT INTO wharf_console_unknown_names (name_key, failed_attempts) VALUES ($1, 1)
       ON CONFLICT (name_key) DO UPDATE SET failed_attempts = wharf_console_unknown_names.failed_attempts + 1 RETURNING failed_attempts, seq`,
      [nameKey],
    );
    const row = rows[0] as { failed_attempts: number | string; seq: number | string };
    await this.db.query('DELETE FROM wharf_console_unknown_names WHERE seq <= $1', [Number(row.seq) - keep]);
    return Number(row.failed_attempts);
  }

  async lockUnknownName(nameKey: string, until: number): Promise<void> {
    await this.db.query('UPDATE wharf_console_unknown_names SET failed_attempts = 0, locked_until = $1 WHERE name_key = $2', [until, nameKey]);
  }

  findByIdentity(issuer: string, subject: string): Promise<AccountRow | null> {
    return this.one(
      'SELECT a.* FROM wharf_console_accounts a JOIN wharf_console_identities i ON i.account_id = a.id WHERE i.issuer = $1 AND i.subject = $2',
      [issuer, subject],
    );
  }

  async identitiesOf(accountId: number): Promise<IdentityRow[]> {
    const { rows } = await this.db.query('SELECT * FROM wharf_console_identities WHERE account_id = $1 ORDER BY issuer', [accountId]);
    return rows.map((raw) => identityFromRaw(raw as RawIdentity));
  }

  async linkIdentity(row: IdentityRow): Promise<void> {
    try {
      await this.db.query('INSERT INTO wharf_console_identities (account_id, issuer, subject, linked_at) VALUES ($1, $2, $3, $4)', [
        row.accountId,
        row.issuer,
        row.subject,
        row.linkedAt,
      ]);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new IdentityLinkedError();
      throw error;
    }
  }

  async unlinkIdentity(accountId: number, issuer: string): Promise<boolean> {
    const { rows } = await this.db.query('DELETE FROM wharf_console_identities WHERE account_id = $1 AND issuer = $2 RETURNING subject', [accountId, issuer]);
    return rows.length > 0;
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
