/**
 * Console accounts and their sign-in sessions, stored next to the tokens (same SQLite file or the
 * same PostgreSQL database, Auth:Store:*), with the one-time sign-in CSRF values. Sessions are server-side: the cookie carries a random
 * id, the store only its SHA-256, so sign-out and disabling an account end a session everywhere.
 * Times are epoch milliseconds.
 */

export const ROLES = ['administrator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface AccountRow {
  readonly id: number;
  readonly username: string;
  readonly role: Role;
  readonly passwordHash: string;
  readonly mustChangePassword: boolean;
  readonly disabled: boolean;
  readonly failedAttempts: number;
  /** Sign-in refused until then (lockout after repeated failures); null = not locked. */
  readonly lockedUntil: number | null;
  readonly createdAt: number;
  readonly lastSignInAt: number | null;
}

export type NewAccountRow = Pick<AccountRow, 'username' | 'role' | 'passwordHash' | 'mustChangePassword' | 'createdAt'>;
export type AccountPatch = Partial<Omit<AccountRow, 'id' | 'username' | 'createdAt'>>;

export interface SessionRow {
  readonly idHash: string;
  readonly accountId: number;
  /** The CSRF value bound to this session (double submit: cookie gateway_csrf = header X-CSRF-Token). */
  readonly csrf: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** A single sign-on identity linked to a console account: the provider's `iss` and `sub`. */
export interface IdentityRow {
  readonly accountId: number;
  readonly issuer: string;
  readonly subject: string;
  readonly linkedAt: number;
}

/**
 * Sessions kept per account: a sign-in beyond it ends the account's oldest session. Without it
 * (and with expired sessions only deleted when presented) one caller signing in again and again
 * grew the table without bound.
 */
export const SESSIONS_PER_ACCOUNT = 50;
/** Unused sign-in CSRF values kept at most (GET /ui/api/auth/csrf is open): the oldest go first. */
export const SIGN_IN_CSRF_KEPT = 10_000;
/**
 * Usernames without an account whose failed sign-ins are counted (so they lock out like a real
 * account and the answer does not tell which names exist): at most this many, the oldest go first.
 */
export const UNKNOWN_NAMES_KEPT = 10_000;

export interface AccountStore {
  migrate(): Promise<void>;
  list(): Promise<AccountRow[]>;
  findByName(username: string): Promise<AccountRow | null>;
  findById(id: number): Promise<AccountRow | null>;
  /** Throws AccountExistsError on a duplicate username (case-insensitive). */
  insert(row: NewAccountRow): Promise<AccountRow>;
  update(id: number, patch: AccountPatch): Promise<AccountRow | null>;
  /** Adds one to failed_attempts in one statement and returns the new count (concurrent sign-ins each get their own). */
  addFailedAttempt(id: number): Promise<number>;
  /** Deletes the account and its sessions; false when unknown. */
  delete(id: number): Promise<boolean>;
  /** Keeps a session; drops expired sessions and the account's oldest beyond `keepPerAccount` (SESSIONS_PER_ACCOUNT). */
  insertSession(row: SessionRow, keepPerAccount: number): Promise<void>;
  findSession(idHash: string): Promise<SessionRow | null>;
  deleteSession(idHash: string): Promise<void>;
  deleteSessionsOf(accountId: number): Promise<void>;
  /** Keeps a sign-in CSRF value (its SHA-256) until `expiresAt`; drops expired ones, and the oldest
   *  beyond `keep` (SIGN_IN_CSRF_KEPT: the route issuing them needs no sign-in). Both through an
   *  index (expiry; issue order), so an issuance costs what it removes, never a sort of every row. */
  insertCsrf(valueHash: string, expiresAt: number, now: number, keep: number): Promise<void>;
  /** Deletes the value and says whether it was there and unexpired: true for exactly one caller,
   *  on whichever instance shares the store (one-time sign-in CSRF values). */
  consumeCsrf(valueHash: string, now: number): Promise<boolean>;
  /** Lockout of a username that has no account (lower case): locked_until, or null. */
  unknownNameLock(nameKey: string): Promise<number | null>;
  /** Counts a failed sign-in for a username without an account (one statement, like addFailedAttempt);
   *  keeps the `keep` (UNKNOWN_NAMES_KEPT) newest names, through an index. */
  addUnknownNameAttempt(nameKey: string, keep: number): Promise<number>;
  lockUnknownName(nameKey: string, until: number): Promise<void>;
  /** The account linked to this identity, or null. */
  findByIdentity(issuer: string, subject: string): Promise<AccountRow | null>;
  identitiesOf(accountId: number): Promise<IdentityRow[]>;
  /** Links it; throws IdentityLinkedError when the identity belongs to any account already, or
   *  the account already has one identity of this issuer. */
  linkIdentity(row: IdentityRow): Promise<void>;
  /** false when the account had no identity of this issuer. */
  unlinkIdentity(accountId: number, issuer: string): Promise<boolean>;
  close(): Promise<void>;
}

export class IdentityLinkedError extends Error {
  override readonly name = 'IdentityLinkedError';
  constructor() {
    super('This identity is linked to an account already, or the account has one of this provider');
  }
}

export interface RawIdentity {
  account_id: number | string;
  issuer: string;
  subject: string;
  linked_at: number | string;
}

export function identityFromRaw(raw: RawIdentity): IdentityRow {
  return { accountId: Number(raw.account_id), issuer: raw.issuer, subject: raw.subject, linkedAt: Number(raw.linked_at) };
}

export class AccountExistsError extends Error {
  override readonly name = 'AccountExistsError';
  constructor(readonly username: string) {
    super(`An account named '${username}' already exists`);
  }
}

/** Column of each patchable field: the only identifiers update() ever writes into SQL. */
export const PATCH_COLUMNS: Readonly<Record<keyof AccountPatch, string>> = {
  role: 'role',
  passwordHash: 'password_hash',
  mustChangePassword: 'must_change_password',
  disabled: 'disabled',
  failedAttempts: 'failed_attempts',
  lockedUntil: 'locked_until',
  lastSignInAt: 'last_sign_in_at',
};

export function patchEntries(patch: AccountPatch): [string, unknown][] {
  return (Object.keys(patch) as (keyof AccountPatch)[])
    .filter((key) => patch[key] !== undefined && Object.hasOwn(PATCH_COLUMNS, key))
    .map((key) => {
      const value = patch[key];
      return [PATCH_COLUMNS[key], typeof value === 'boolean' ? (value ? 1 : 0) : value];
    });
}

export interface RawAccount {
  id: number | string;
  username: string;
  role: string;
  password_hash: string;
  must_change_password: number | boolean;
  disabled: number | boolean;
  failed_attempts: number | string;
  locked_until: number | string | null;
  created_at: number | string;
  last_sign_in_at: number | string | null;
}

export interface RawSession {
  id_hash: string;
  account_id: number | string;
  csrf: string;
  created_at: number | string;
  expires_at: number | string;
}

const nullableNumber = (value: number | string | null): number | null => (value === null ? null : Number(value));

export function accountFromRaw(raw: RawAccount): AccountRow {
  return {
    id: Number(raw.id),
    username: raw.username,
    role: raw.role === 'administrator' ? 'administrator' : 'viewer',
    passwordHash: raw.password_hash,
    mustChangePassword: Boolean(Number(raw.must_change_password)),
    disabled: Boolean(Number(raw.disabled)),
    failedAttempts: Number(raw.failed_attempts),
    lockedUntil: nullableNumber(raw.locked_until),
    createdAt: Number(raw.created_at),
    lastSignInAt: nullableNumber(raw.last_sign_in_at),
  };
}

export function sessionFromRaw(raw: RawSession): SessionRow {
  return {
    idHash: raw.id_hash,
    accountId: Number(raw.account_id),
    csrf: raw.csrf,
    createdAt: Number(raw.created_at),
    expiresAt: Number(raw.expires_at),
  };
}
