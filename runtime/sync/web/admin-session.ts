/**
 * The dashboard's administrator sessions. Reading the dashboard needs nothing (the health routes'
 * trust model); replaying and purging dead letters needs WebHost:AdminKey. Signing in compares the
 * entered key with it in constant time (SHA-256 digests through timingSafeEqual, so neither the
 * content nor the length leaks); a session is a random id in an HttpOnly SameSite=Strict cookie
 * plus a random CSRF token bound to it, which the page sends back as X-CSRF-Token (synchronizer
 * token: a cross-site page can neither read it nor guess it). A session ends after eight hours,
 * on sign-out, or when the key changes. Five wrong keys in a minute from one client address lock
 * sign-in for that address for the rest of that minute (IPv6 by its /64: one host holds them all);
 * other addresses can still sign in, so a stranger's wrong keys cannot keep the operator out.
 * At most MAX_CLIENTS addresses are remembered: beyond, expired ones and then the oldest are
 * forgotten. The key itself is never logged, stored or echoed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { WharfError } from '../../errors/wharf-error.js';
import { sameSecret } from '../../auth/same-secret.js';
import { normalizeAddress } from '../../traffic/client-ip.js';

export const SESSION_COOKIE = 'wharf_sync_session';
export const SESSION_TTL_SECONDS = 8 * 3600;
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 60_000;
/** Client addresses with recent wrong keys kept at most (each holds at most MAX_FAILURES times). */
export const MAX_CLIENTS = 10_000;

interface Session {
  readonly csrf: string;
  readonly keyDigest: Buffer;
  readonly expires: number;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
const random = (): string => randomBytes(32).toString('base64url');

/** Whom wrong keys are counted against: the address, an IPv6 address by its first 64 bits. */
function clientOf(address: string): string {
  const plain = normalizeAddress(address);
  if (isIP(plain) !== 6) return plain;
  const [head = '', tail = ''] = plain.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = plain.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export class AdminSessions {
  private readonly sessions = new Map<string, Session>();
  /** Times of recent wrong keys per client (clientOf), oldest client first. */
  private readonly failures = new Map<string, number[]>();

  /** `key()` is read on every call, so a reloaded WebHost:AdminKey applies at once. */
  constructor(
    private readonly key: () => string | null,
    private readonly now: () => number = Date.now,
  ) {}

  get configured(): boolean {
    return this.key() !== null;
  }

  /** A new session for the right key; throws the registry's refusal otherwise. `address`: the client's (request.ip). */
  signIn(candidate: unknown, address: string): { id: string; csrf: string } {
    const key = this.key();
    if (key === null) throw new WharfError('SYNC_DASHBOARD_READ_ONLY');
    const now = this.now();
    const client = clientOf(address);
    const recent = (this.failures.get(client) ?? []).filter((at) => now - at < FAILURE_WINDOW_MS);
    if (recent.length >= MAX_FAILURES) {
      const seconds = Math.ceil((FAILURE_WINDOW_MS - (now - (recent[0] as number))) / 1000);
      throw new WharfError('SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED', { seconds });
    }
    if (typeof candidate !== 'string' || !sameSecret(candidate, key)) {
      this.failed(client, [...recent, now], now);
      throw new WharfError('SYNC_DASHBOARD_KEY_INVALID');
    }
    this.failures.delete(client);
    for (const [id, s] of this.sessions) if (s.expires <= now) this.sessions.delete(id);
    const id = random();
    const csrf = random();
    this.sessions.set(id, { csrf, keyDigest: digest(key), expires: now + SESSION_TTL_SECONDS * 1000 });
    return { id, csrf };
  }

  /** Records the wrong keys of `client`, most recent client last; keeps at most MAX_CLIENTS clients. */
  private failed(client: string, times: number[], now: number): void {
    this.failures.delete(client);
    // In order of their last wrong key: expired clients, and beyond the bound the oldest, are at the front.
    for (const [other, at] of this.failures) {
      if (this.failures.size < MAX_CLIENTS && now - (at.at(-1) as number) < FAILURE_WINDOW_MS) break;
      this.failures.delete(other);
    }
    this.failures.set(client, times);
  }

  /** Clients with recent wrong keys remembered (for tests of the bound). */
  get rememberedClients(): number {
    return this.failures.size;
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
