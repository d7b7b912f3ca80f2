/**
 * JWT bearer tokens of the OpenID Connect provider (Auth:Jwt:*), verified with jose:
 * signature by the provider's keys (RS256, ES256 or EdDSA only: never `none`, never HS256, so a
 * public key can never be used as an HMAC secret), `iss`, `aud`, `exp` and `nbf` (with
 * Auth:Jwt:ClockSkewSeconds), and a `sub`. The scopes claim (space-separated string or array)
 * maps to the same `read` / `write` / endpoint-pattern rules as Wharf's tokens (scopes.ts).
 *
 * A signature check costs far more than the rest of a request (about 130 to 170 µs of CPU for
 * RS256 on the project's machine, `npm run bench -- sql`), so a verified token is remembered by its
 * SHA-256 (never the token itself) until its `exp`, at most VERIFIED_CACHE_SIZE of them (the oldest
 * go first). A remembered result is used only while the key set it was verified with is current:
 * every fetch of the provider's keys (rotation, the background refresh) starts over, so a key the
 * provider withdraws stops verifying when the uncached check would notice it too. Failures are
 * never remembered.
 *
 * A key the provider publishes that cannot verify anything (an RSA modulus under 2048 bits, a
 * malformed JWK) makes jose throw a TypeError or a WebCrypto DOMException rather than a JOSEError:
 * the token is refused (401) like any other unverifiable one and the fault is reported (onError),
 * never a 500.
 */
import { errors, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import { parseEnvironments, parseScopes } from '../scopes.js';
import { hashToken } from '../token-secret.js';
import type { TokenPrincipal, Verification } from '../tokens.js';
import { JwksUnavailable, RemoteKeySet } from './key-set.js';
import type { JwtSettings } from './jwt-settings.js';

export const JWT_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;

/** A compact JWS: three base64url parts. Wharf's own tokens (`whf_...`) never contain a dot. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export function looksLikeJwt(token: string): boolean {
  return COMPACT_JWS.test(token);
}

/** Names in a claim: a space-separated (or comma-separated) string, or an array of strings. Anything else: none. */
export function claimNames(value: unknown): string[] {
  const items = typeof value === 'string' ? value.split(/[\s,]+/) : Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
  return items.map((item: string) => item.trim()).filter((item) => item.length > 0);
}

/** OpenID Connect's own scopes: about the ID token, never endpoint patterns (they would match no endpoint and so close every one). */
const OIDC_SCOPES: ReadonlySet<string> = new Set(['openid', 'profile', 'email', 'address', 'phone', 'offline_access']);

/** Most verified JWTs remembered at once. */
export const VERIFIED_CACHE_SIZE = 10_000;

interface Verified {
  readonly principal: TokenPrincipal;
  /** `exp` in ms: never used at or after it (jose's clock skew applies only to a full check). */
  readonly until: number;
  /** The key set generation it was verified with. */
  readonly generation: number;
}

export class JwtVerifier {
  readonly keys: RemoteKeySet;
  private readonly onError: (message: string, error: unknown) => void;
  private readonly verified = new Map<string, Verified>();
  private readonly now: () => number;
  private readonly cacheSize: number;

  constructor(
    readonly settings: JwtSettings,
    options: { readonly onError?: (message: string, error: unknown) => void; readonly now?: () => number; readonly cacheSize?: number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => undefined);
    this.cacheSize = options.cacheSize ?? VERIFIED_CACHE_SIZE;
    this.keys = new RemoteKeySet({
      issuer: settings.issuer,
      jwksUrl: settings.jwksUrl,
      refreshMs: settings.keysRefreshSeconds * 1000,
      timeoutMs: settings.keysTimeoutMs,
      cooldownMs: settings.keysCooldownSeconds * 1000,
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }

  /** How many verified tokens are remembered. */
  get cachedCount(): number {
    return this.verified.size;
  }

  /** Throws JwksUnavailable when the provider's keys were never fetched. */
  verify(token: string): Promise<Verification> {
    const id = hashToken(token);
    const hit = this.verified.get(id);
    if (hit !== undefined) {
      // a remembered token never reaches the key resolver: keys due for a refresh are fetched here
      this.keys.refreshIfDue();
      if (hit.generation === this.keys.generation && this.now() < hit.until) return Promise.resolve({ ok: true, principal: hit.principal, cached: true });
      this.verified.delete(id);
    }
    return this.check(token, id);
  }

  private async check(token: string, id: string): Promise<Verification> {
    // the set in use when the check starts (a fetch during it makes the result count for the older set)
    const generation = this.keys.generation;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys.resolve, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: [...JWT_ALGORITHMS],
        clockTolerance: this.settings.clockSkewSeconds,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
      if (error instanceof errors.JOSEError) return { ok: false, reason: 'unknown' };
      if (error instanceof JwksUnavailable) throw error;
      this.onError('JWT: a provider key cannot verify tokens (token refused)', error);
      return { ok: false, reason: 'unknown' };
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') return { ok: false, reason: 'unknown' };
    const principal = this.principal(payload);
    this.remember(id, principal, generation);
    return { ok: true, principal, cached: false };
  }

  private remember(id: string, principal: TokenPrincipal, generation: number): void {
    if (principal.expiresAt === null || principal.expiresAt <= this.now()) return;
    if (this.verified.size >= this.cacheSize) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(id, { principal, until: principal.expiresAt, generation });
  }

  private principal(payload: JWTPayload): TokenPrincipal {
    const grantedScopes = claimNames(payload[this.settings.scopesClaim]);
    const claim = this.settings.environmentsClaim;
    const environments = claim === null ? '*' : claimNames(payload[claim]).join(',');
    const expiresAt = typeof payload.exp === 'number' ? payload.exp * 1000 : null;
    return {
      kind: 'jwt',
      tokenId: 0,
      username: payload.sub as string,
      rateKey: `jwt ${payload.iss ?? ''} ${payload.sub as string}`,
      grantedScopes,
      claims: Object.freeze({ ...payload }),
      allowedScopes: grantedScopes.join(','),
      allowedEnvironments: environments,
      scopes: parseScopes(grantedScopes.filter((scope) => !OIDC_SCOPES.has(scope)).join(',')),
      environments: parseEnvironments(environments),
      expiresAt,
    };
  }
}
