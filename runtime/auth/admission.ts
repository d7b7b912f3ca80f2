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

export interface AccessControl {
  readonly tokens: TokenService;
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

/**
 * admit() without waiting, when nothing needs I/O: rate limiting off and the token answered from
 * the verification cache (or missing / malformed). Same outcome as admit(); null: call admit().
 */
export function admitCached(
  control: AccessControl,
  remoteAddress: string | undefined,
  headers: IncomingHttpHeaders,
): Admission | null {
  if (control.limiter?.enabled) return null;
  const outcome = authenticateCached(headers.authorization, control.tokens);
  if (outcome === null) return null;
  const client = control.clientIp.resolve(remoteAddress, headers['x-forwarded-for']);
  return outcome instanceof WharfError
    ? { client, principal: null, rateLimit: null, headers: NO_HEADERS, error: outcome }
    : { client, principal: outcome, rateLimit: null, headers: NO_HEADERS, error: null };
}

export async function admit(
  control: AccessControl,
  remoteAddress: string | undefined,
  headers: IncomingHttpHeaders,
): Promise<Admission> {
  const client = control.clientIp.resolve(remoteAddress, headers['x-forwarded-for']);
  const limiter = control.limiter?.enabled ? control.limiter : null;
  let decision: RateDecision | null = null;
  const done = (principal: TokenPrincipal | null, error: WharfError | null): Admission => ({
    client,
    principal,
    rateLimit: decision,
    headers: error?.status === 429 ? error.headers : decision ? rateLimitHeaders(decision) : {},
    error,
  });

  if (limiter) {
    decision = await limiter.check('ip', client.ip);
    if (!decision.allowed) return done(null, limiter.exceeded(decision));
  }
  let principal: TokenPrincipal;
  try {
    principal = await authenticate(headers.authorization, control.tokens);
  } catch (error) {
    if (error instanceof WharfError) return done(null, error);
    throw error;
  }
  if (limiter) {
    const tokenDecision = await limiter.check('token', String(principal.tokenId));
    decision = tighter(decision, tokenDecision);
    if (!tokenDecision.allowed) return done(principal, limiter.exceeded(tokenDecision));
  }
  return done(principal, null);
}
