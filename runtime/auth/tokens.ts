/**
 * The token service: create / list / revoke / rotate / unarchive and verify. The CLI and the
 * admin console both use it. Verification is one indexed read by lookup id plus a constant-time
 * hash comparison; verified tokens are cached briefly by their SHA-256 (never the token itself).
 * A revoke or rotate on this instance drops the cache entry at once; other instances sharing the
 * store see it when their entry expires (Auth:VerificationCacheSeconds, default 5).
 */
import { parseEnvironments, parseScopes, splitList } from './scopes.js';
import type { EnvironmentSet, ScopeSet } from './scopes.js';
import { isActive } from './store/token-store.js';
import type { AuditContext, AuditRow, TokenPatch, TokenRow, TokenStore } from './store/token-store.js';
import { hashesEqual, hashToken, issueSecret, parseLookupId } from './token-secret.js';

/** The caller's identity, the same for Wharf's own tokens and JWTs of the OpenID Connect provider. */
export interface TokenPrincipal {
  readonly kind: 'wharf' | 'jwt';
  /** The Wharf token's id; 0 for a JWT (never a token id: ids start at 1). */
  readonly tokenId: number;
  /** Wharf token: its username; JWT: `sub`. */
  readonly username: string;
  /** What the per-token rate limit counts on: the token id, or a JWT's `iss` + `sub`. */
  readonly rateKey: string;
  /** The scope names as granted (`read`, `orders.read`, ...), for Authorization rules. */
  readonly grantedScopes: readonly string[];
  /** `@claims.x` of Authorization rules: a JWT's payload; a Wharf token's `username` and `scope`. */
  readonly claims: Readonly<Record<string, unknown>>;
  readonly allowedScopes: string;
  readonly allowedEnvironments: string;
  readonly scopes: ScopeSet;
  readonly environments: EnvironmentSet;
  readonly expiresAt: number | null;
}

export type VerifyFailure = 'malformed' | 'unknown' | 'expired' | 'revoked';
export type Verification =
  | { readonly ok: true; readonly principal: TokenPrincipal; readonly cached: boolean }
  | { readonly ok: false; readonly reason: VerifyFailure };

export interface CreateTokenInput {
  readonly username: string;
  readonly description?: string;
  readonly allowedScopes?: string;
  readonly allowedEnvironments?: string;
  /** null or absent: never expires. */
  readonly expiresInDays?: number | null;
}

export interface IssuedToken {
  /** The token value: show it once, never store or log it. */
  readonly token: string;
  readonly record: TokenRow;
}

export interface RotatedToken extends IssuedToken {
  /** The rotated token, now revoked (`record` is its successor). */
  readonly previous: TokenRow;
}

export interface TokenServiceOptions {
  readonly verificationCacheMs?: number;
  readonly now?: () => number;
  readonly maxCachedTokens?: number;
  /** Told after a revoke or rotate, e.g. to tell other instances at once (revocation-bus.ts). */
  readonly announce?: (tokenId: number) => void | Promise<void>;
}

export interface UpdateTokenInput {
  readonly description?: string;
  readonly allowedScopes?: string;
  readonly allowedEnvironments?: string;
  /** Epoch ms, or null for never. */
  readonly expiresAt?: number | null;
}

/** A change that would leave no usable full-access token: the console answers 409. */
export class TokenConflictError extends Error {
  override readonly name = 'TokenConflictError';
}

/** Bad input to create: the console answers 400, the CLI prints the message. */
export class TokenInputError extends Error {
  override readonly name = 'TokenInputError';
}

const DAY_MS = 86_400_000;
const USERNAME = /^[A-Za-z0-9._@-]{1,100}$/;
const LIST_ITEM = /^[A-Za-z0-9_.\/*-]{1,200}$/;
const NO_CONTEXT: AuditContext = { ipAddress: null, userAgent: null };
const MALFORMED: Verification = Object.freeze({ ok: false, reason: 'malformed' });

interface CacheEntry {
  readonly principal: TokenPrincipal;
  readonly until: number;
}

function validList(name: string, value: string): string {
  const items = splitList(value);
  if (items.length === 0) throw new TokenInputError(`${name} must not be empty (use * for all)`);
  const bad = items.find((item) => !LIST_ITEM.test(item));
  if (bad !== undefined) throw new TokenInputError(`${name} contains an invalid item '${bad}'`);
  return items.join(',');
}

/** Scope `*` and environments `*`: the only tokens the console accepts (console-access.ts). */
export function isFullAccess(row: Pick<TokenRow, 'allowedScopes' | 'allowedEnvironments'>): boolean {
  return parseScopes(row.allowedScopes).all && parseEnvironments(row.allowedEnvironments).all;
}

export function principalOf(row: TokenRow): TokenPrincipal {
  const grantedScopes = splitList(row.allowedScopes);
  return {
    kind: 'wharf',
    tokenId: row.id,
    username: row.username,
    rateKey: String(row.id),
    grantedScopes,
    claims: Object.freeze({ sub: row.username, username: row.username, scope: grantedScopes.join(' ') }),
    allowedScopes: row.allowedScopes,
    allowedEnvironments: row.allowedEnvironments,
    scopes: parseScopes(row.allowedScopes),
    environments: parseEnvironments(row.allowedEnvironments),
    expiresAt: row.expiresAt,
  };
}

export class TokenService {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly cacheMs: number;
  private readonly maxCached: number;
  private readonly now: () => number;
  private readonly announce: (tokenId: number) => void | Promise<void>;

  constructor(
    readonly store: TokenStore,
    options: TokenServiceOptions = {},
  ) {
    this.cacheMs = options.verificationCacheMs ?? 5000;
    this.maxCached = options.maxCachedTokens ?? 10_000;
    this.now = options.now ?? Date.now;
    this.announce = options.announce ?? (() => {});
  }

  /** After any change to a token (revoke, rotate, scope edits): forget it here, tell the other
   *  instances; a failed announcement only delays them to their cache TTL. */
  async changed(tokenId: number): Promise<void> {
    this.forget(tokenId);
    try {
      await this.announce(tokenId);
    } catch {
      // other instances fall back to their verification cache TTL
    }
  }

  async create(input: CreateTokenInput, context: AuditContext = NO_CONTEXT): Promise<IssuedToken> {
    const username = input.username.trim();
    if (!USERNAME.test(username)) {
      throw new TokenInputError('username must be 1 to 100 characters of letters, digits, . _ @ -');
    }
    const days = input.expiresInDays ?? null;
    if (days !== null && (!Number.isInteger(days) || days < 1 || days > 36_500)) {
      throw new TokenInputError('expires_in_days must be a whole number from 1 to 36500');
    }
    const now = this.now();
    const issued = issueSecret();
    const record = await this.store.insert(
      {
        username,
        description: (input.description ?? '').trim(),
        createdAt: now,
        expiresAt: days === null ? null : now + days * DAY_MS,
        allowedScopes: validList('allowed_scopes', input.allowedScopes ?? '*'),
        allowedEnvironments: validList('allowed_environments', input.allowedEnvironments ?? '*'),
        lookupId: issued.lookupId,
        tokenHash: issued.hash,
      },
      { ...context, operation: 'Created', timestamp: now, details: `Token created for ${username}` },
    );
    return { token: issued.token, record };
  }

  list(includeRevoked = false): Promise<TokenRow[]> {
    return this.store.list(includeRevoked);
  }

  get(id: number): Promise<TokenRow | null> {
    return this.store.findById(id);
  }

  audit(id: number, limit = 50): Promise<AuditRow[]> {
    return this.store.audit(id, limit);
  }

  /** null when the id is unknown or already revoked. */
  async revoke(id: number, context: AuditContext = NO_CONTEXT): Promise<TokenRow | null> {
    const now = this.now();
    const row = await this.store.setRevoked(id, now, {
      ...context,
      operation: 'Revoked',
      timestamp: now,
      details: 'Token revoked',
    });
    await this.changed(id);
    return row;
  }

  /** Clears revoked_at; the token is usable again unless it has expired. null when not revoked. */
  async unarchive(id: number, context: AuditContext = NO_CONTEXT): Promise<TokenRow | null> {
    const now = this.now();
    return this.store.setRevoked(id, null, {
      ...context,
      operation: 'Unarchived',
      timestamp: now,
      details: 'Token restored',
    });
  }

  /**
   * Edits scopes, environments, description or expiry (PUT /ui/api/tokens/{id}). Refuses (409) to
   * narrow the last active token with scope `*` and environments `*`. null when the id is unknown.
   */
  async update(id: number, input: UpdateTokenInput, context: AuditContext = NO_CONTEXT): Promise<TokenRow | null> {
    const current = await this.store.findById(id);
    if (!current) return null;
    const patch: TokenPatch = {
      ...(input.description !== undefined ? { description: input.description.trim() } : {}),
      ...(input.allowedScopes !== undefined ? { allowedScopes: validList('allowed_scopes', input.allowedScopes) } : {}),
      ...(input.allowedEnvironments !== undefined
        ? { allowedEnvironments: validList('allowed_environments', input.allowedEnvironments) }
        : {}),
      ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt } : {}),
    };
    const now = this.now();
    if (isActive(current, now) && isFullAccess(current) && !isFullAccess({ ...current, ...patch })) {
      const fullAccess = (await this.store.list(false)).filter((row) => isActive(row, now) && isFullAccess(row));
      if (fullAccess.length <= 1) throw new TokenConflictError('Cannot narrow the last full-access token');
    }
    const changed = Object.keys(patch).join(', ') || 'nothing';
    const row = await this.store.update(id, patch, { ...context, operation: 'Updated', timestamp: now, details: `Token updated: ${changed}` });
    await this.changed(id);
    return row;
  }

  /**
   * Rotation (spec: the old token revoked, a new token created): the successor gets a new id and
   * secret and keeps username, description, scopes, environments and expiry; the old row is revoked
   * with its own `Revoked` audit entry naming the successor, and its value stops working at once.
   * null when the id is unknown or revoked.
   */
  async rotate(id: number, context: AuditContext = NO_CONTEXT): Promise<RotatedToken | null> {
    const now = this.now();
    const issued = issueSecret();
    const rows = await this.store.rotate(id, { lookupId: issued.lookupId, tokenHash: issued.hash }, {
      ...context,
      operation: 'Created',
      timestamp: now,
      details: `Token created by rotating token ${id}`,
    });
    await this.changed(id);
    return rows ? { token: issued.token, record: rows.next, previous: rows.previous } : null;
  }

  async verify(token: string): Promise<Verification> {
    const lookupId = parseLookupId(token);
    if (lookupId === null) return MALFORMED;
    const hash = hashToken(token);
    const now = this.now();
    const known = this.fromCache(hash, now);
    if (known) return known;
    this.cache.delete(hash); // expired entry, if any
    const row = await this.store.findByLookupId(lookupId);
    if (!row || !hashesEqual(row.tokenHash, hash)) return { ok: false, reason: 'unknown' };
    if (row.revokedAt !== null) return { ok: false, reason: 'revoked' };
    if (!isActive(row, now)) return { ok: false, reason: 'expired' };
    const principal = principalOf(row);
    if (this.cacheMs > 0) {
      if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(hash, { principal, until: now + this.cacheMs });
    }
    return { ok: true, principal, cached: false };
  }

  /**
   * What verify() answers without reading the store: a malformed token, or a live cache entry
   * (the same hash lookup verify() makes). null when only the store can tell.
   */
  verifyCached(token: string): Verification | null {
    if (parseLookupId(token) === null) return MALFORMED;
    return this.fromCache(hashToken(token), this.now());
  }

  private fromCache(hash: string, now: number): Verification | null {
    const hit = this.cache.get(hash);
    if (!hit || hit.until <= now) return null;
    if (hit.principal.expiresAt !== null && hit.principal.expiresAt <= now) return { ok: false, reason: 'expired' };
    return { ok: true, principal: hit.principal, cached: true };
  }

  /** Drops cached verifications of one token (after revoke/rotate, or a change from elsewhere). */
  forget(tokenId: number): void {
    for (const [hash, entry] of this.cache) if (entry.principal.tokenId === tokenId) this.cache.delete(hash);
  }

  forgetAll(): void {
    this.cache.clear();
  }
}
