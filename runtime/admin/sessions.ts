/**
 * Console sessions: a random 32-byte id in the HttpOnly cookie gateway_auth, its SHA-256 in the
 * store with the account id, expiry (WebUi:SessionHours, default 12) and the CSRF value bound to
 * it. resolve() re-reads the account on every request, so a role change, disabling or deleting an
 * account takes effect at the next request. A new session drops the expired ones and, beyond
 * SESSIONS_PER_ACCOUNT, the account's oldest; at most SIGN_IN_CSRF_KEPT sign-in CSRF values are kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SESSIONS_PER_ACCOUNT, SIGN_IN_CSRF_KEPT } from './account-store.js';
import type { AccountRow, AccountStore, SessionRow } from './account-store.js';

export interface Session {
  readonly id: string;
  readonly row: SessionRow;
}

export interface ResolvedSession {
  readonly row: SessionRow;
  readonly account: AccountRow;
}

/** The administrator a WebUi:AdminApiKey sign-in acts as (no stored account, id 0). */
export const API_KEY_ACCOUNT: AccountRow = Object.freeze({
  id: 0,
  username: 'admin-api-key',
  role: 'administrator',
  passwordHash: '',
  mustChangePassword: false,
  disabled: false,
  failedAttempts: 0,
  lockedUntil: null,
  createdAt: 0,
  lastSignInAt: null,
});

export function sessionHash(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

export function randomValue(): string {
  return randomBytes(32).toString('base64url');
}

export class SessionService {
  constructor(
    private readonly store: AccountStore,
    readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async create(account: AccountRow): Promise<Session> {
    const id = randomValue();
    const now = this.now();
    const row: SessionRow = { idHash: sessionHash(id), accountId: account.id, csrf: randomValue(), createdAt: now, expiresAt: now + this.lifetimeMs };
    await this.store.insertSession(row, SESSIONS_PER_ACCOUNT);
    return { id, row };
  }

  /** null when unknown, expired, or the account is gone or disabled. */
  async resolve(id: string | undefined): Promise<ResolvedSession | null> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const hash = sessionHash(id);
    const row = await this.store.findSession(hash);
    if (!row) return null;
    if (row.expiresAt <= this.now()) {
      await this.store.deleteSession(hash);
      return null;
    }
    const account = row.accountId === API_KEY_ACCOUNT.id ? API_KEY_ACCOUNT : await this.store.findById(row.accountId);
    if (!account || account.disabled || account.mustChangePassword) return null;
    return { row, account };
  }

  /** A one-time sign-in CSRF value, kept (as its SHA-256) in the shared store for `lifetimeMs`. */
  async issueCsrf(lifetimeMs: number): Promise<string> {
    const value = randomValue();
    const now = this.now();
    await this.store.insertCsrf(sessionHash(value), now + lifetimeMs, now, SIGN_IN_CSRF_KEPT);
    return value;
  }

  /** true once per issued, unexpired value, whichever instance issued it. */
  consumeCsrf(value: string): Promise<boolean> {
    return this.store.consumeCsrf(sessionHash(value), this.now());
  }

  end(id: string | undefined): Promise<void> {
    return id ? this.store.deleteSession(sessionHash(id)) : Promise.resolve();
  }
}
