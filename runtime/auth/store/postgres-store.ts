/**
 * Shared token store on PostgreSQL: several gateway instances use one set of tokens.
 * Works on anything with pg's `query(text, params)` (a pg.Pool in production). Every change and its
 * audit entry is ONE statement (data-modifying CTE), so it is atomic without a client transaction.
 */
import { createSchema } from './pg-schema.js';
import { auditFromRaw, tokenFromRaw } from './raw-rows.js';
import type { RawAudit, RawToken } from './raw-rows.js';
import { tokenPatchEntries, UsernameTakenError } from './token-store.js';
import type { AuditInput, AuditRow, NewTokenRow, TokenPatch, TokenRow, TokenStore } from './token-store.js';

export interface PgQueryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

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
  `CREATE UNIQUE INDEX IF NOT EXISTS wharf_tokens_username ON wharf_tokens (lower(username))`,
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

export class PostgresTokenStore implements TokenStore {
  readonly kind = 'postgres';

  constructor(
    private readonly db: PgQueryable,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  async migrate(): Promise<void> {
    await createSchema(this.db, SCHEMA);
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
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *),
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
    try {
      return (await this.one(text, params))!;
    } catch (error) {
      const pgError = error as { code?: string; constraint?: string; message?: string };
      if (pgError.code === '23505' && !String(pgError.constraint ?? pgError.message).includes('lookup')) {
        throw new UsernameTakenError(row.username);
      }
      throw error;
    }
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

  setRevoked(id: number, revokedAt: number | null, audit: AuditInput): Promise<TokenRow | null> {
    const condition = revokedAt === null ? 'revoked_at IS NOT NULL' : 'revoked_at IS NULL';
    const [text, params] = withAudit(
      `WITH t AS (UPDATE wharf_tokens SET revoked_at = $1 WHERE id = $2 AND ${condition} RETURNING *),
       a AS (${AUDIT_FROM('t')})
       SELECT * FROM t`,
      [revokedAt, id],
      audit,
    );
    return this.one(text, params);
  }

  replaceSecret(id: number, lookupId: string, tokenHash: string, audit: AuditInput): Promise<TokenRow | null> {
    const [text, params] = withAudit(
      `WITH t AS (UPDATE wharf_tokens SET lookup_id = $1, token_hash = $2 WHERE id = $3 AND revoked_at IS NULL RETURNING *),
       a AS (${AUDIT_FROM('t')})
       SELECT * FROM t`,
      [lookupId, tokenHash, id],
      audit,
    );
    return this.one(text, params);
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

  close(): Promise<void> {
    return this.onClose();
  }
}
