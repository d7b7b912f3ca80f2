/**
 * Default token store: a SQLite file (better-sqlite3, WAL) in the data folder, `data/auth.db`.
 * One process at a time writes comfortably; several gateway instances on one host can share
 * the file, instances on several hosts need the PostgreSQL store.
 */
import { auditFromRaw, tokenFromRaw } from './raw-rows.js';
import type { RawAudit, RawToken } from './raw-rows.js';
import { openSqlite } from './sqlite-database.js';
import type { SqliteDatabase, Statement } from './sqlite-database.js';
import { ROTATED_DETAILS, tokenPatchEntries, UsernameTakenError } from './token-store.js';
import type { AuditInput, AuditRow, NewSecret, NewTokenRow, RotatedRows, TokenPatch, TokenRow, TokenStore } from './token-store.js';

/**
 * Usernames are unique among active tokens (partial index); insert() also refuses a username any
 * revoked token has, so only a rotation's successor shares its predecessor's username.
 */
const tokensTable = (name: string): string => `
CREATE TABLE IF NOT EXISTS ${name} (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER,
  allowed_scopes TEXT NOT NULL,
  allowed_environments TEXT NOT NULL,
  lookup_id TEXT NOT NULL UNIQUE,
  token_hash TEXT NOT NULL
);`;

const SCHEMA = `${tokensTable('tokens')}
CREATE UNIQUE INDEX IF NOT EXISTS tokens_active_username ON tokens(username COLLATE NOCASE) WHERE revoked_at IS NULL;
CREATE TABLE IF NOT EXISTS token_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  token_id INTEGER NOT NULL REFERENCES tokens(id),
  operation TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  details TEXT NOT NULL DEFAULT '',
  ip_address TEXT,
  user_agent TEXT
);
CREATE INDEX IF NOT EXISTS token_audit_token ON token_audit(token_id, id);
`;

/** A store made before rotation created successors had `username ... UNIQUE` on the table itself. */
const OLD_USERNAME_RULE = /username TEXT NOT NULL UNIQUE/i;

function isUniqueViolation(error: unknown): boolean {
  return String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_CONSTRAINT');
}

export class SqliteTokenStore implements TokenStore {
  readonly kind = 'sqlite';
  private readonly db: SqliteDatabase;
  private readonly byLookup: Statement;

  constructor(readonly file: string) {
    this.db = openSqlite(file);
    this.createTables();
    this.byLookup = this.db.prepare('SELECT * FROM tokens WHERE lookup_id = ?');
  }

  async migrate(): Promise<void> {
    this.createTables();
  }

  /** Creates what is missing; rebuilds an old tokens table (table-wide unique username) once. */
  private createTables(): void {
    this.db.exec(SCHEMA);
    const table = this.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tokens'").get() as { sql: string } | undefined;
    if (!table || !OLD_USERNAME_RULE.test(table.sql)) return;
    this.db.pragma('foreign_keys = OFF'); // token_audit refers to tokens while it is swapped
    try {
      this.db.transaction(() => {
        const current = this.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tokens'").get() as { sql: string };
        if (!OLD_USERNAME_RULE.test(current.sql)) return; // another process was first
        this.db.exec(`DROP TABLE IF EXISTS tokens_rebuilt;
          ${tokensTable('tokens_rebuilt')}
          INSERT INTO tokens_rebuilt (id, username, description, created_at, expires_at, revoked_at, allowed_scopes, allowed_environments, lookup_id, token_hash)
            SELECT id, username, description, created_at, expires_at, revoked_at, allowed_scopes, allowed_environments, lookup_id, token_hash FROM tokens;
          DROP TABLE tokens;
          ALTER TABLE tokens_rebuilt RENAME TO tokens;`);
        this.db.exec(SCHEMA);
      })();
    } finally {
      this.db.pragma('foreign_keys = ON');
    }
  }

  private addAudit(tokenId: number, audit: AuditInput): void {
    this.db
      .prepare(
        'INSERT INTO token_audit (token_id, operation, timestamp, details, ip_address, user_agent) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(tokenId, audit.operation, audit.timestamp, audit.details, audit.ipAddress, audit.userAgent);
  }

  async insert(row: NewTokenRow, audit: AuditInput): Promise<TokenRow> {
    const run = this.db.transaction(() => {
      const taken = this.db.prepare('SELECT id FROM tokens WHERE username = ?').get(row.username);
      if (taken) throw new UsernameTakenError(row.username);
      const result = this.db
        .prepare(
          `INSERT INTO tokens (username, description, created_at, expires_at, allowed_scopes, allowed_environments, lookup_id, token_hash)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          row.username,
          row.description,
          row.createdAt,
          row.expiresAt,
          row.allowedScopes,
          row.allowedEnvironments,
          row.lookupId,
          row.tokenHash,
        );
      const id = Number(result.lastInsertRowid);
      this.addAudit(id, audit);
      return id;
    });
    const id = run();
    return (await this.findById(id))!;
  }

  async findById(id: number): Promise<TokenRow | null> {
    const raw = this.db.prepare('SELECT * FROM tokens WHERE id = ?').get(id) as RawToken | undefined;
    return raw ? tokenFromRaw(raw) : null;
  }

  async findByLookupId(lookupId: string): Promise<TokenRow | null> {
    const raw = this.byLookup.get(lookupId) as RawToken | undefined;
    return raw ? tokenFromRaw(raw) : null;
  }

  async list(includeRevoked: boolean): Promise<TokenRow[]> {
    const sql = includeRevoked
      ? 'SELECT * FROM tokens ORDER BY id'
      : 'SELECT * FROM tokens WHERE revoked_at IS NULL ORDER BY id';
    return (this.db.prepare(sql).all() as RawToken[]).map(tokenFromRaw);
  }

  async count(): Promise<number> {
    const raw = this.db.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number };
    return Number(raw.n);
  }

  async setRevoked(id: number, revokedAt: number | null, audit: AuditInput): Promise<TokenRow | null> {
    const condition = revokedAt === null ? 'revoked_at IS NOT NULL' : 'revoked_at IS NULL';
    const run = this.db.transaction(() => {
      const result = this.db
        .prepare(`UPDATE tokens SET revoked_at = ? WHERE id = ? AND ${condition}`)
        .run(revokedAt, id);
      if (result.changes === 0) return false;
      this.addAudit(id, audit);
      return true;
    });
    try {
      return run() ? this.findById(id) : null;
    } catch (error) {
      const row = isUniqueViolation(error) ? await this.findById(id) : null;
      if (row) throw new UsernameTakenError(row.username);
      throw error;
    }
  }

  async rotate(id: number, secret: NewSecret, created: AuditInput): Promise<RotatedRows | null> {
    const run = this.db.transaction(() => {
      const at = created.timestamp;
      if (this.db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id).changes === 0) return null;
      const result = this.db
        .prepare(
          `INSERT INTO tokens (username, description, created_at, expires_at, allowed_scopes, allowed_environments, lookup_id, token_hash)
           SELECT username, description, ?, expires_at, allowed_scopes, allowed_environments, ?, ? FROM tokens WHERE id = ?`,
        )
        .run(at, secret.lookupId, secret.tokenHash, id);
      const nextId = Number(result.lastInsertRowid);
      this.addAudit(id, { ...created, operation: 'Revoked', details: `${ROTATED_DETAILS}${nextId}` });
      this.addAudit(nextId, created);
      return nextId;
    });
    const nextId = run();
    if (nextId === null) return null;
    return { previous: (await this.findById(id))!, next: (await this.findById(nextId))! };
  }

  async update(id: number, patch: TokenPatch, audit: AuditInput): Promise<TokenRow | null> {
    const entries = tokenPatchEntries(patch);
    const run = this.db.transaction(() => {
      if (!this.db.prepare('SELECT id FROM tokens WHERE id = ?').get(id)) return false;
      if (entries.length > 0) {
        const sets = entries.map(([column]) => `${column} = ?`).join(', ');
        this.db.prepare(`UPDATE tokens SET ${sets} WHERE id = ?`).run(...entries.map(([, value]) => value), id);
      }
      this.addAudit(id, audit);
      return true;
    });
    return run() ? this.findById(id) : null;
  }

  async audit(tokenId: number, limit: number): Promise<AuditRow[]> {
    const rows = this.db
      .prepare('SELECT * FROM token_audit WHERE token_id = ? ORDER BY id DESC LIMIT ?')
      .all(tokenId, limit) as RawAudit[];
    return rows.map(auditFromRaw);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

