/**
 * The token store: one interface, one implementation per database (SQLite file by default,
 * PostgreSQL for stores shared by several gateway instances; SQL Server plugs in here too).
 * Stores hold the SHA-256 of a token and its non-secret lookup id, never the token itself.
 * Times are epoch milliseconds; views for the console format them (token-view.ts).
 */

export const AUDIT_OPERATIONS = ['Created', 'Revoked', 'Rotated', 'Unarchived', 'Updated'] as const;
export type AuditOperation = (typeof AUDIT_OPERATIONS)[number];

export interface TokenRow {
  readonly id: number;
  readonly username: string;
  readonly description: string;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
  /** Comma-separated, as stored (`*`, `read`, `read,write`, endpoint patterns). */
  readonly allowedScopes: string;
  /** Comma-separated or `*`. */
  readonly allowedEnvironments: string;
  readonly lookupId: string;
  readonly tokenHash: string;
}

export type NewTokenRow = Omit<TokenRow, 'id' | 'revokedAt'>;

/** The fields the console may edit (PUT /ui/api/tokens/{id}); absent = unchanged. */
export interface TokenPatch {
  readonly description?: string;
  readonly allowedScopes?: string;
  readonly allowedEnvironments?: string;
  readonly expiresAt?: number | null;
}

/** Column per patch field: the only identifiers update() writes into SQL. */
export const TOKEN_PATCH_COLUMNS: Readonly<Record<keyof TokenPatch, string>> = {
  description: 'description',
  allowedScopes: 'allowed_scopes',
  allowedEnvironments: 'allowed_environments',
  expiresAt: 'expires_at',
};

export function tokenPatchEntries(patch: TokenPatch): [string, unknown][] {
  return (Object.keys(TOKEN_PATCH_COLUMNS) as (keyof TokenPatch)[])
    .filter((key) => patch[key] !== undefined)
    .map((key) => [TOKEN_PATCH_COLUMNS[key], patch[key]]);
}

/** Who did it: recorded on every audit entry. */
export interface AuditContext {
  readonly ipAddress: string | null;
  readonly userAgent: string | null;
}

export interface AuditInput extends AuditContext {
  readonly operation: AuditOperation;
  readonly timestamp: number;
  readonly details: string;
}

export interface AuditRow extends AuditInput {
  readonly id: number;
  readonly tokenId: number;
}

/** The new secret of a rotation: lookup id and SHA-256, never the token itself. */
export interface NewSecret {
  readonly lookupId: string;
  readonly tokenHash: string;
}

export interface RotatedRows {
  /** The old token, now revoked. */
  readonly previous: TokenRow;
  /** Its successor, active, with a new id. */
  readonly next: TokenRow;
}

/** Audit details of the revoked side of a rotation; the stores append the successor's id. */
export const ROTATED_DETAILS = 'Token rotated; replaced by token ';

export interface TokenStore {
  readonly kind: 'sqlite' | 'postgres' | 'mssql';
  /** Creates the tables when missing. Idempotent. */
  migrate(): Promise<void>;
  /** Inserts the token and its audit entry atomically; throws UsernameTakenError when any token,
   *  revoked ones included, has the username (case-insensitive). Only rotation reuses a username. */
  insert(row: NewTokenRow, audit: AuditInput): Promise<TokenRow>;
  findById(id: number): Promise<TokenRow | null>;
  /** The verification read: one indexed lookup. */
  findByLookupId(lookupId: string): Promise<TokenRow | null>;
  /** Sorted by id. Revoked tokens only when asked. */
  list(includeRevoked: boolean): Promise<TokenRow[]>;
  /** Number of tokens, revoked ones included. */
  count(): Promise<number>;
  /**
   * Rotation, atomically: revokes the token (audit `Revoked`, details ROTATED_DETAILS + the new id)
   * and inserts its successor with the same username, description, scopes, environments and expiry
   * but the new secret (audit `Created`, details `created.details`). null when unknown or revoked.
   */
  rotate(id: number, secret: NewSecret, created: AuditInput): Promise<RotatedRows | null>;
  /** Sets or clears revoked_at and audits it; null when the id is unknown or already in that state.
   *  Throws UsernameTakenError when unarchiving would make two active tokens with one username
   *  (a rotated token's successor is still active). */
  setRevoked(id: number, revokedAt: number | null, audit: AuditInput): Promise<TokenRow | null>;
  /** Changes the editable fields of a token and audits it; null when the id is unknown. */
  update(id: number, patch: TokenPatch, audit: AuditInput): Promise<TokenRow | null>;
  /** Newest first. */
  audit(tokenId: number, limit: number): Promise<AuditRow[]>;
  /** Answers when the store can be read (health check); throws AUTH_STORE_UNAVAILABLE when not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class UsernameTakenError extends Error {
  override readonly name = 'UsernameTakenError';
  constructor(readonly username: string) {
    super(`A token with username '${username}' already exists`);
  }
}

/** is_active: not revoked and not expired at `now`. Derived, never stored. */
export function isActive(row: Pick<TokenRow, 'revokedAt' | 'expiresAt'>, now: number): boolean {
  return row.revokedAt === null && (row.expiresAt === null || row.expiresAt > now);
}
