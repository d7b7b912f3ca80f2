/**
 * Console accounts: create, change password, promote, demote, disable, enable, delete (the CLI and
 * the console share this), the sign-in check with lockout, and the first administrator.
 * Rules: usernames `^[A-Za-z0-9._@-]{1,100}$`; there is always at least one enabled administrator
 * (demote/disable/delete of the last one is refused); after LOCKOUT_THRESHOLD failed sign-ins in a
 * row an account is locked for LOCKOUT_MS (stored, so every instance sharing the store honours it);
 * an attempt is counted before its password is checked, so concurrent attempts cannot outrun it.
 * A well-formed username with no account is counted and locked the same way (in the store too).
 */
import { AccountExistsError, UNKNOWN_NAMES_KEPT } from './account-store.js';
import type { AccountRow, AccountStore, Role } from './account-store.js';
import { hashPassword, passwordProblem, randomPassword, verifyPassword } from './password.js';

export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MS = 15 * 60_000;
const USERNAME = /^[A-Za-z0-9._@-]{1,100}$/;

/** A refused account change: the CLI prints it, the console answers 400/404/409 with it. */
export class AccountRuleError extends Error {
  override readonly name = 'AccountRuleError';
  constructor(
    message: string,
    readonly kind: 'invalid' | 'not-found' | 'conflict',
  ) {
    super(message);
  }
}

export type SignInResult =
  | { readonly ok: true; readonly account: AccountRow }
  | { readonly ok: false; readonly reason: 'invalid' | 'disabled' }
  | { readonly ok: false; readonly reason: 'locked'; readonly retryAfterSeconds: number };

export interface FirstAdmin {
  readonly username: string;
  /** Shown once when it was generated; null when WebUi:SeedPassword gave it. */
  readonly oneTimePassword: string | null;
}

/** Where the failed sign-ins of one username are counted: its account row, or the unknown names. */
interface FailureCounter {
  readonly lockedUntil: number | null;
  add(): Promise<number>;
  lock(until: number): Promise<void>;
}

/** A hash to compare against for unknown usernames, so their answer takes as long as a real one. */
let decoyHash: Promise<string> | null = null;

export class AccountService {
  constructor(
    readonly store: AccountStore,
    private readonly now: () => number = Date.now,
  ) {}

  list(): Promise<AccountRow[]> {
    return this.store.list();
  }

  async get(username: string): Promise<AccountRow> {
    const account = await this.store.findByName(username);
    if (!account) throw new AccountRuleError(`No account named '${username}'`, 'not-found');
    return account;
  }

  async create(username: string, password: string, role: Role, mustChangePassword = false): Promise<AccountRow> {
    if (!USERNAME.test(username)) {
      throw new AccountRuleError('username must be 1 to 100 characters of letters, digits, . _ @ -', 'invalid');
    }
    const problem = passwordProblem(password);
    if (problem) throw new AccountRuleError(problem, 'invalid');
    try {
      return await this.store.insert({ username, role, passwordHash: await hashPassword(password), mustChangePassword, createdAt: this.now() });
    } catch (error) {
      if (error instanceof AccountExistsError) throw new AccountRuleError(error.message, 'conflict');
      throw error;
    }
  }

  /** Sets a new password (clears must_change_password, lockout) and ends the account's sessions. */
  async setPassword(username: string, password: string, mustChangePassword = false): Promise<AccountRow> {
    const account = await this.get(username);
    const problem = passwordProblem(password);
    if (problem) throw new AccountRuleError(problem, 'invalid');
    await this.store.deleteSessionsOf(account.id);
    return (await this.store.update(account.id, {
      passwordHash: await hashPassword(password),
      mustChangePassword,
      failedAttempts: 0,
      lockedUntil: null,
    }))!;
  }

  async setRole(username: string, role: Role): Promise<AccountRow> {
    const account = await this.get(username);
    if (role !== 'administrator') await this.refuseLastAdmin(account, 'demote');
    return (await this.store.update(account.id, { role }))!;
  }

  async setDisabled(username: string, disabled: boolean): Promise<AccountRow> {
    const account = await this.get(username);
    if (disabled) {
      await this.refuseLastAdmin(account, 'disable');
      await this.store.deleteSessionsOf(account.id);
    }
    return (await this.store.update(account.id, { disabled, ...(disabled ? {} : { failedAttempts: 0, lockedUntil: null }) }))!;
  }

  async delete(username: string): Promise<void> {
    const account = await this.get(username);
    await this.refuseLastAdmin(account, 'delete');
    await this.store.delete(account.id);
  }

  private async refuseLastAdmin(account: AccountRow, action: string): Promise<void> {
    if (account.role !== 'administrator' || account.disabled) return;
    const others = (await this.store.list()).filter((a) => a.id !== account.id && a.role === 'administrator' && !a.disabled);
    if (others.length === 0) {
      throw new AccountRuleError(`Cannot ${action} '${account.username}': it is the last active administrator`, 'conflict');
    }
  }

  /**
   * Checks a password; counts failures and locks after LOCKOUT_THRESHOLD in a row. A username with
   * no account is counted and locked the same way (UNKNOWN_NAMES_KEPT names at most), so the
   * answers (401, then 429 with the same Retry-After) do not tell which accounts exist.
   */
  async signIn(username: string, password: string): Promise<SignInResult> {
    const valid = typeof username === 'string' && USERNAME.test(username);
    const account = valid ? await this.store.findByName(username) : null;
    if (!account && !valid) return this.decoy(password); // a name that can never be an account
    const nameKey = username.toLowerCase();
    const counter: FailureCounter = account
      ? {
          lockedUntil: account.lockedUntil,
          add: () => this.store.addFailedAttempt(account.id),
          lock: async (until) => void (await this.store.update(account.id, { failedAttempts: 0, lockedUntil: until })),
        }
      : {
          lockedUntil: await this.store.unknownNameLock(nameKey),
          add: () => this.store.addUnknownNameAttempt(nameKey, UNKNOWN_NAMES_KEPT),
          lock: (until) => this.store.lockUnknownName(nameKey, until),
        };
    const now = this.now();
    if (counter.lockedUntil !== null && counter.lockedUntil > now) {
      return { ok: false, reason: 'locked', retryAfterSeconds: Math.ceil((counter.lockedUntil - now) / 1000) };
    }
    const lock = async (): Promise<SignInResult> => {
      await counter.lock(now + LOCKOUT_MS);
      return { ok: false, reason: 'locked', retryAfterSeconds: LOCKOUT_MS / 1000 };
    };
    // The attempt takes its place in the counter before the password is checked (one statement), so
    // attempts made at once cannot all read the same count: at most LOCKOUT_THRESHOLD are checked.
    const attempt = await counter.add();
    if (attempt > LOCKOUT_THRESHOLD) return lock();
    const matches = account ? await verifyPassword(password, account.passwordHash) : (await this.decoy(password), false);
    if (!matches) {
      return attempt >= LOCKOUT_THRESHOLD ? lock() : { ok: false, reason: 'invalid' };
    }
    if (account!.disabled) {
      await this.store.update(account!.id, { failedAttempts: 0 });
      return { ok: false, reason: 'disabled' };
    }
    const updated = await this.store.update(account!.id, { failedAttempts: 0, lockedUntil: null, lastSignInAt: now });
    return { ok: true, account: updated! };
  }

  /** Compares against a throw-away hash, so an unknown username takes as long as a real one. */
  private async decoy(password: string): Promise<SignInResult> {
    decoyHash ??= hashPassword(randomPassword());
    await verifyPassword(password, await decoyHash);
    return { ok: false, reason: 'invalid' };
  }

  /**
   * With no account at all: creates the first administrator. `seedPassword` (WebUi:SeedPassword)
   * gives `admin` with that fixed password and no forced change; otherwise `admin-<8 random>` with a
   * random one-time password that must be changed at the first sign-in. null when accounts exist,
   * or when another instance starting at the same moment created its administrator first.
   */
  async ensureFirstAdmin(seedPassword: string | null): Promise<FirstAdmin | null> {
    if ((await this.store.list()).length > 0) return null;
    try {
      if (seedPassword !== null) {
        await this.create('admin', seedPassword, 'administrator', false);
        return { username: 'admin', oneTimePassword: null };
      }
      const username = `admin-${randomPassword().replace(/[^A-Za-z0-9]/g, '').slice(0, 8).toLowerCase()}`;
      const password = randomPassword();
      await this.create(username, password, 'administrator', true);
      // Instances starting at once on an empty shared store each got here: the oldest account
      // wins, the others take theirs back (ids only grow, and each sees its own insert).
      const mine = await this.store.findByName(username);
      if (mine && (await this.store.list()).some((account) => account.id < mine.id)) {
        await this.store.delete(mine.id);
        return null;
      }
      return { username, oneTimePassword: password };
    } catch (error) {
      if (error instanceof AccountRuleError && error.kind === 'conflict') return null; // another instance was first
      throw error;
    }
  }
}
