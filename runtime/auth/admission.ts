/**
 * Admission: the first stage of every protected request, before the URL is routed or the body read.
 *   client IP -> IP rate limit (429) -> authenticate (401) -> token rate limit (429)
 * Never throws for a refusal: it returns the refusal together with the X-RateLimit-* headers,
 * which belong on the refusal too (every response carries them).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ClientAddress, ClientIpResolver } from '../traffic/client-ip.js';
import { rateLimitHeaders, tighter } from '../traffic/rate-limiter.js';
import type { RateDecision, RateLimiter } from '../traffic/rate-limiter.js';
import { WharfError } from '../errors/wharf-error.js';
import { authenticate, authenticateCached } from './authorize.js';
import type { TokenPrincipal, TokenService } from './tokens.js';
import type { JwtVerifier } from './jwt/jwt-verifier.js';

export interface AccessControl {
  readonly tokens: TokenService;
  /** JWTs of the OpenID Connect provider; null or absent when Auth:Jwt:Issuer is not set. */
  readonly jwt?: JwtVerifier | null;
  readonly clientIp: ClientIpResolver;
  /** null or disabled: no rate limits, no X-RateLimit-* headers. */
  readonly limiter: RateLimiter | null;
}

export interface Admission {
  readonly client: ClientAddress;
  /** Set when admitted. */
  readonly principal: TokenPrincipal | null;
  /** The budget reported in X-RateLimit-* (null when rate limiting is off). */
  readonly rateLimit: RateDecision | null;
  /** Headers for the response, whatever its outcome. */
  readonly headers: Readonly<Record<string, string>>;
  /** The refusal (401 or 429), or null when admitted. */
  readonly error: WharfError | null;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The admission of a finished check; the headers of a 429 are its own (Retry-After included). */
function outcome(client: ClientAddress, principal: TokenPrincipal | null, decision: RateDecision | null, error: WharfError | null): Admission {
  return {
    client,
    principal,
    rateLimit: decision,
    headers: error?.status === 429 ? error.headers : decision ? rateLimitHeaders(decision) : NO_HEADERS,
    error,
  };
}

/**
 * admit() without waiting, when nothing needs I/O: the token is answered from the verification
 * cache (or is missing / malformed) and the rate-limit counters, if any, are in memory. Same
 * outcome and the same counting as admit(); null (nothing counted yet): call admit().
 */
export function admitCached(
  control: AccessControl,
  remoteAddress: string | undefined,
  headers: IncomingHttpHeaders,
): Admission | null {
  const limiter = control.limiter?.enabled ? control.limiter : null;
  if (limiter !== null && !limiter.synchronous) return null;
  // verifyCached only reads the cache, so asking it before the IP count changes nothing
  const known = authenticateCached(headers.authorization, control.tokens, control.jwt ?? null);
  if (known === null) return null;
  const client = control.clientIp.resolve(remoteAddress, headers['x-forwarded-for']);
  if (limiter === null) return known instanceof WharfError ? outcome(client, null, null, known) : outcome(client, known, null, null);
  const ip = limiter.checkSync('ip', client.ip);
  if (!ip.allowed) return outcome(client, null, ip, limiter.exceeded(ip));
  if (known instanceof WharfError) return outcome(client, null, ip, known);
  const token = limiter.checkSync('token', known.rateKey);
  const decision = tighter(ip, token);
  return outcome(client, known, decision, token.allowed ? null : limiter.exceeded(token));
}

export async function admit(
  control: AccessControl,
  remoteAddress: string | undefined,
  headers: IncomingHttpHeaders,
): Promise<Admission> {
  const client = control.clientIp.resolve(remoteAddress, headers['x-forwarded-for']);
  const limiter = control.limiter?.enabled ? control.limiter : null;
  let decision: RateDecision | null = null;
  if (limiter) {
    decision = await limiter.check('ip', client.ip);
    if (!decision.allowed) return outcome(client, null, decision, limiter.exceeded(decision));
  }
  let principal: TokenPrincipal;
  try {
    principal = await authenticate(headers.authorization, control.tokens, control.jwt ?? null);
  } catch (error) {
    if (error instanceof WharfError) return outcome(client, null, decision, error);
    throw error;
  }
  if (limiter) {
    const tokenDecision = await limiter.check('token', principal.rateKey);
    decision = tighter(decision, tokenDecision);
    if (!tokenDecision.allowed) return outcome(client, principal, decision, limiter.exceeded(tokenDecision));
  }
  return outcome(client, principal, decision, null);
}
