/**
 * Shared token store on PostgreSQL: several gateway instances use one set of tokens.
 * Works on anything with pg's `query(text, params)` (a pg.Pool in production). Every change and its
 * audit entry is ONE statement (data-modifying CTE), so it is atomic without a client transaction.
 */
import { createSchema, type PgQueryable } from './pg-schema.js';
import { auditFromRaw, tokenFromRaw } from './raw-rows.js';
import type { RawAudit, RawToken } from './raw-rows.js';
import { ROTATED_DETAILS, tokenPatchEntries, UsernameTakenError } from './token-store.js';
import type { AuditInput, AuditRow, NewSecret, NewTokenRow, RotatedRows, TokenPatch, TokenRow, TokenStore } from './token-store.js';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS wharf_tokens (
    id BIGSERIAL PRIMARY KEY,
    username TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    expires_at BIGINT,
    revoked_at BIGINT,
    allowed_scopes TEXT NOT NULL,
    allowed_environments TEXT NOT NULL,
    lookup_id TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL
  )`,
  // usernames are unique among active tokens; insert() also refuses one a revoked token has, so
  // only a rotation's successor shares its predecessor's username (the old table-wide index goes)
  `DROP INDEX IF EXISTS wharf_tokens_username`,
  `CREATE UNIQUE INDEX IF NOT EXISTS wharf_tokens_active_username ON wharf_tokens (lower(username)) WHERE revoked_at IS NULL`,
  `CREATE TABLE IF NOT EXISTS wharf_token_audit (
    id BIGSERIAL PRIMARY KEY,
    token_id BIGINT NOT NULL REFERENCES wharf_tokens(id),
    operation TEXT NOT NULL,
    timestamp BIGINT NOT NULL,
    details TEXT NOT NULL DEFAULT '',
    ip_address TEXT,
    user_agent TEXT
  )`,
  `CREATE INDEX IF NOT EXISTS wharf_token_audit_token ON wharf_token_audit (token_id, id)`,
];

const AUDIT_FROM = (source: string): string =>
  `INSERT INTO wharf_token_audit (token_id, operation, timestamp, details, ip_address, user_agent)
   SELECT id, $a1, $a2, $a3, $a4, $a5 FROM ${source}`;

/** Numbers the audit placeholders after the statement's own ones. */
function withAudit(sql: string, params: unknown[], audit: AuditInput): [string, unknown[]] {
  const base = params.length;
  const text = sql.replace(/\$a(\d)/g, (_whole, n: string) => `$${base + Number(n)}`);
  return [text, [...params, audit.operation, audit.timestamp, audit.details, audit.ipAddress, audit.userAgent]];
}

/** A unique violation on the username index (not the lookup id's). */
function isUsernameViolation(error: unknown): boolean {
  const pgError = error as { code?: string; constraint?: string; message?: string };
  return pgError.code === '23505' && !String(pgError.constraint ?? pgError.message).includes('lookup');
}

export class PostgresTokenStore implements TokenStore {
  readonly kind = 'postgres';

  constructor(
    private readonly db: PgQueryable,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  /** `db`: where to run the statements (StorePool.prepare passes its connection without the migration step). */
  async migrate(db: PgQueryable = this.db): Promise<void> {
    await createSchema(db, SCHEMA);
  }

  private async one(sql: string, params: unknown[]): Promise<TokenRow | null> {
    const { rows } = await this.db.query(sql, params);
    const raw = rows[0] as RawToken | undefined;
    return raw ? tokenFromRaw(raw) : null;
  }

  async insert(row: NewTokenRow, audit: AuditInput): Promise<TokenRow> {
    const [text, params] = withAudit(
      `WITH t AS (
         INSERT INTO wharf_tokens (username, description, created_at, expires_at, allowed_scopes, allowed_environments, lookup_id, token_hash)
         SELECT $1::text, $2::text, $3::bigint, $4::bigint, $5::text, $6::text, $7::text, $8::text
         WHERE NOT EXISTS (SELECT 1 FROM wharf_tokens WHERE lower(username) = lower($1::text))
         RETURNING *),
       a AS (${AUDIT_FROM('t')})
       SELECT * FROM t`,
      [
        row.username,
        row.description,
        row.createdAt,
        row.expiresAt,
        row.allowedScopes,
        row.allowedEnvironments,
        row.lookupId,
        row.tokenHash,
      ],
      audit,
    );
    let inserted: TokenRow | null;
    try {
      inserted = await this.one(text, params);
    } catch (error) {
      if (isUsernameViolation(error)) throw new UsernameTakenError(row.username);
      throw error;
    }
    if (!inserted) throw new UsernameTakenError(row.username); // a revoked token has it
    return inserted;
  }

  findById(id: number): Promise<TokenRow | null> {
    return this.one('SELECT * FROM wharf_tokens WHERE id = $1', [id]);
  }

  findByLookupId(lookupId: string): Promise<TokenRow | null> {
    return this.one('SELECT * FROM wharf_tokens WHERE lookup_id = $1', [lookupId]);
  }

  async list(includeRevoked: boolean): Promise<TokenRow[]> {
    const sql = includeRevoked
      ? 'SELECT * FROM wharf_tokens ORDER BY id'
      : 'SELECT * FROM wharf_tokens WHERE revoked_at IS NULL ORDER BY id';
    const { rows } = await this.db.query(sql);
    return rows.map((raw) => tokenFromRaw(raw as RawToken));
  }

  async count(): Promise<number> {
    const { rows } = await this.db.query('SELECT COUNT(*) AS n FROM wharf_tokens');
    return Number((rows[0] as { n: string | number }).n);
  }

  async setRevoked(id: number, revokedAt: number | null, audit: AuditInput): Promise<TokenRow | null> {
    const condition = revokedAt === null ? 'revoked_at IS NOT NULL' : 'revoked_at IS NULL';
    const [text, params] = withAudit(
      `WITH t AS (UPDATE wharf_tokens SET revoked_at = $1 WHERE id = $2 AND ${condition} RETURNING *),
       a AS (${AUDIT_FROM('t')})
       SELECT * FROM t`,
      [revokedAt, id],
      audit,
    );
    try {
      return await this.one(text, params);
    } catch (error) {
      const row = isUsernameViolation(error) ? await this.findById(id) : null;
      if (row) throw new UsernameTakenError(row.username);
      throw error;
    }
  }

  /** One statement: revoke, insert the successor, audit both (the successor's id in the old one's details). */
  async rotate(id: number, secret: NewSecret, created: AuditInput): Promise<RotatedRows | null> {
    const { rows } = await this.db.query(
      `WITH o AS (UPDATE wharf_tokens SET revoked_at = $2::bigint WHERE id = $1::bigint AND revoked_at IS NULL RETURNING *),
       n AS (
         INSERT INTO wharf_tokens (username, description, created_at, expires_at, allowed_scopes, allowed_environments, lookup_id, token_hash)
         SELECT username, description, $2::bigint, expires_at, allowed_scopes, allowed_environments, $3::text, $4::text FROM o RETURNING *),
       a AS (
         INSERT INTO wharf_token_audit (token_id, operation, timestamp, details, ip_address, user_agent)
         SELECT o.id, 'Revoked', $2::bigint, $5::text || n.id::text, $7::text, $8::text FROM o, n
         UNION ALL
         SELECT n.id, $9::text, $2::bigint, $6::text, $7::text, $8::text FROM n)
       SELECT 'previous' AS side, o.* FROM o UNION ALL SELECT 'next' AS side, n.* FROM n`,
      [id, created.timestamp, secret.lookupId, secret.tokenHash, ROTATED_DETAILS, created.details, created.ipAddress, created.userAgent, created.operation],
    );
    const side = (name: string) => rows.find((raw) => (raw as { side: string }).side === name) as RawToken | undefined;
    const previous = side('previous');
    const next = side('next');
    return previous && next ? { previous: tokenFromRaw(previous), next: tokenFromRaw(next) } : null;
  }

  update(id: number, patch: TokenPatch, audit: AuditInput): Promise<TokenRow | null> {
    const entries = tokenPatchEntries(patch);
    const sets = ['id = id', ...entries.map(([column], index) => `${column} = $${index + 2}`)].join(', ');
    const [text, params] = withAudit(
      `WITH t AS (UPDATE wharf_tokens SET ${sets} WHERE id = $1 RETURNING *),
       a AS (${AUDIT_FROM('t')})
       SELECT * FROM t`,
      [id, ...entries.map(([, value]) => value)],
      audit,
    );
    return this.one(text, params);
  }

  async audit(tokenId: number, limit: number): Promise<AuditRow[]> {
    const { rows } = await this.db.query(
      'SELECT * FROM wharf_token_audit WHERE token_id = $1 ORDER BY id DESC LIMIT $2',
      [tokenId, limit],
    );
    return rows.map((raw) => auditFromRaw(raw as RawAudit));
  }

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
