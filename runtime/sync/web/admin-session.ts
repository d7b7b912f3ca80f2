/**
 * The dashboard's administrator sessions. Reading the dashboard needs nothing (the health routes'
 * trust model); replaying and purging dead letters needs WebHost:AdminKey. Signing in compares the
 * entered key with it in constant time (SHA-256 digests through timingSafeEqual, so neither the
 * content nor the length leaks); a session is a random id in an HttpOnly SameSite=Strict cookie
 * plus a random CSRF token bound to it, which the page sends back as X-CSRF-Token (synchronizer
 * token: a cross-site page can neither read it nor guess it). A session ends after eight hours,
 * on sign-out, or when the key changes. Five wrong keys in a minute lock sign-in for the rest of
 * that minute. The key itself is never logged, stored or echoed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { WharfError } from '../../errors/wharf-error.js';
import { sameSecret } from '../../auth/same-secret.js';

export const SESSION_COOKIE = 'wharf_sync_session';
export const SESSION_TTL_SECONDS = 8 * 3600;
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 60_000;

interface Session {
  readonly csrf: string;
  readonly keyDigest: Buffer;
  readonly expires: number;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
const random = (): string => randomBytes(32).toString('base64url');


export class AdminSessions {
  private readonly sessions = new Map<string, Session>();
  private failures: number[] = [];

  /** `key()` is read on every call, so a reloaded WebHost:AdminKey applies at once. */
  constructor(
    private readonly key: () => string | null,
    private readonly now: () => number = Date.now,
  ) {}

  get configured(): boolean {
    return this.key() !== null;
  }

  /** A new session for the right key; throws the registry's refusal otherwise. */
  signIn(candidate: unknown): { id: string; csrf: string } {
    const key = this.key();
    if (key === null) throw new WharfError('SYNC_DASHBOARD_READ_ONLY');
    const now = this.now();
    this.failures = this.failures.filter((at) => now - at < FAILURE_WINDOW_MS);
    if (this.failures.length >= MAX_FAILURES) {
      const seconds = Math.ceil((FAILURE_WINDOW_MS - (now - (this.failures[0] as number))) / 1000);
      throw new WharfError('SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED', { seconds });
    }
    if (typeof candidate !== 'string' || !sameSecret(candidate, key)) {
      this.failures.push(now);
      throw new WharfError('SYNC_DASHBOARD_KEY_INVALID');
    }
    this.failures = [];
    for (const [id, s] of this.sessions) if (s.expires <= now) this.sessions.delete(id);
    const id = random();
    const csrf = random();
    this.sessions.set(id, { csrf, keyDigest: digest(key), expires: now + SESSION_TTL_SECONDS * 1000 });
    return { id, csrf };
  }

  /** The live session of this cookie value (null: none, expired, or signed in with an older key). */
  find(id: string | undefined): { csrf: string } | null {
    if (id === undefined) return null;
    const session = this.sessions.get(id);
    const key = this.key();
    if (!session) return null;
    if (key === null || session.expires <= this.now() || !timingSafeEqual(session.keyDigest, digest(key))) {
      this.sessions.delete(id);
      return null;
    }
    return { csrf: session.csrf };
  }

  /** Throws unless `id` is a live session and `csrf` its token. */
  authorize(id: string | undefined, csrf: unknown): void {
    if (!this.configured) throw new WharfError('SYNC_DASHBOARD_READ_ONLY');
    const session = this.find(id);
    if (!session) throw new WharfError('SYNC_DASHBOARD_UNAUTHORIZED');
    if (typeof csrf !== 'string' || !sameSecret(csrf, session.csrf)) throw new WharfError('SYNC_DASHBOARD_CSRF');
  }

  signOut(id: string | undefined): void {
    if (id !== undefined) this.sessions.delete(id);
  }
}
