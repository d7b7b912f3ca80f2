/**
 * Two request stages:
 *   authenticate(authorization header) -> TokenPrincipal, or 401 (missing / invalid, expired, revoked)
 *   authorize(principal, resolution)   -> void, or 403 (environment, then method + endpoint scope)
 * Refusals are WharfErrors (areas auth); the central error handler sends them.
 * The full check order of a request is written down in docs/security.md.
 */
import { WharfError } from '../errors/wharf-error.js';
import { environmentAllowed, scopeAllowsEndpoint, scopeAllowsMethod } from './scopes.js';
import type { EndpointIdentity } from './scopes.js';
import type { AuthorizationRule, EndpointAuthorization } from '../contract/model.js';
import { selectRule } from './rules/select-rule.js';
import type { TokenPrincipal, TokenService, Verification } from './tokens.js';
import { JwksUnavailable } from './jwt/key-set.js';
import { looksLikeJwt } from './jwt/jwt-verifier.js';
import type { JwtVerifier } from './jwt/jwt-verifier.js';

/** What routing found: enough for authorization (a subset of EndpointModel). */
export interface EndpointResolution {
  /** Environment name as in the URL. */
  readonly env: string;
  /** Request method, upper case (QUERY, MERGE included). */
  readonly method: string;
  readonly endpoint: EndpointIdentity & { readonly authorization?: EndpointAuthorization };
}

const MISSING_HEADERS = { 'WWW-Authenticate': 'Bearer' } as const;
const INVALID_HEADERS = { 'WWW-Authenticate': 'Bearer error="invalid_token"' } as const;

/**
 * RFC 6750 §2.1 credentials, read strictly: the scheme `Bearer` (any case, RFC 7235), exactly one
 * space, then a b64token (`A-Z a-z 0-9 - . _ ~ + /`, then `=` padding) and nothing else: no tab,
 * no second space, no trailing space. Anything else is not a bearer credential (401).
 */
const BEARER = /^bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/** The token of an `Authorization: Bearer <token>` header; null when absent, malformed or another scheme. */
export function bearerToken(authorization: string | undefined): string | null {
  if (authorization === undefined) return null;
  const match = BEARER.exec(authorization);
  return match ? (match[1] as string) : null;
}

/** Only for JWTs, whose expiry anyone holding them can read: Wharf's own tokens never say why (no probing). */
const JWT_EXPIRED_HEADERS = { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="The token has expired"' } as const;

function principalOrRefusal(verification: Verification, jwt = false): TokenPrincipal | WharfError {
  if (verification.ok) return verification.principal;
  const headers = jwt && verification.reason === 'expired' ? JWT_EXPIRED_HEADERS : INVALID_HEADERS;
  return new WharfError('AUTH_TOKEN_INVALID', {}, { headers });
}

/**
 * A bearer token is either Wharf's own (`whf_...`) or, when Auth:Jwt:Issuer is set, a JWT of the
 * OpenID Connect provider (three dot-separated parts): never both, the shapes cannot overlap.
 */
export async function authenticate(
  authorization: string | undefined,
  tokens: TokenService,
  jwt: JwtVerifier | null = null,
): Promise<TokenPrincipal> {
  const token = bearerToken(authorization);
  if (token === null) throw new WharfError('AUTH_TOKEN_MISSING', {}, { headers: MISSING_HEADERS });
  let verification: Verification;
  const isJwt = jwt !== null && looksLikeJwt(token);
  if (isJwt) {
    try {
      verification = await jwt.verify(token);
    } catch (error) {
      if (error instanceof JwksUnavailable) throw new WharfError('AUTH_JWKS_UNAVAILABLE', {}, { headers: { 'Retry-After': '5' }, cause: error });
      throw error;
    }
  } else {
    verification = await tokens.verify(token);
  }
  const outcome = principalOrRefusal(verification, isJwt);
  if (outcome instanceof WharfError) throw outcome;
  return outcome;
}

/**
 * authenticate() without waiting, when the answer needs no store read: no token, a malformed one,
 * or a verification still in the token service's cache. The refusal is returned, not thrown.
 * null: only authenticate() can tell.
 */
export function authenticateCached(
  authorization: string | undefined,
  tokens: TokenService,
  jwt: JwtVerifier | null = null,
): TokenPrincipal | WharfError | null {
  const token = bearerToken(authorization);
  if (token === null) return new WharfError('AUTH_TOKEN_MISSING', {}, { headers: MISSING_HEADERS });
  if (jwt !== null && looksLikeJwt(token)) return null; // signature checks are asynchronous
  const verification = tokens.verifyCached(token);
  return verification === null ? null : principalOrRefusal(verification);
}

export function authorizeEnvironment(principal: TokenPrincipal, env: string): void {
  if (!environmentAllowed(principal.environments, env)) throw new WharfError('AUTH_ENVIRONMENT_DENIED', { env });
}

export function authorizeEndpoint(principal: TokenPrincipal, method: string, endpoint: EndpointIdentity): void {
  if (!scopeAllowsMethod(principal.scopes, method) || !scopeAllowsEndpoint(principal.scopes, endpoint)) {
    throw new WharfError('AUTH_SCOPE_DENIED', { method: method.toUpperCase(), endpoint: endpoint.routePath });
  }
}

/**
 * Environment first, then scope: a token confined to `dev` learns nothing about prod endpoints.
 * An endpoint with Authorization rules is allowed by its rules instead of the scope patterns: the
 * rule that applies is returned (null for endpoints without rules), none applying is 403.
 */
export function authorize(principal: TokenPrincipal, resolution: EndpointResolution): AuthorizationRule | null {
  authorizeEnvironment(principal, resolution.env);
  const authorization = resolution.endpoint.authorization;
  if (authorization === undefined) {
    authorizeEndpoint(principal, resolution.method, resolution.endpoint);
    return null;
  }
  const rule = selectRule(authorization, principal, resolution.method);
  if (rule === null) {
    throw new WharfError('AUTH_SCOPE_DENIED', { method: resolution.method.toUpperCase(), endpoint: resolution.endpoint.routePath });
  }
  return rule;
}
