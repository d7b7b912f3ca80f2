/**
 * `Auth:ReferenceRequiresToken` (default false, in the registry): the API reference (`/docs` and its assets), the
 * OpenAPI document (`/openapi.json`) and the landing page (`/`) need a bearer token with scope
 * `read` or `*` (401 without a valid token, 403 for a token without either). Off, they are open
 * (docs/security.md says why that is the default); spec 1 leaves only `/health/live` open.
 * Added as an onRequest hook to the plugin scope that serves those routes.
 */
import type { FastifyInstance } from 'fastify';
import type { AccessRuntime } from '../auth/access-runtime.js';
import { authenticate } from '../auth/authorize.js';
import type { ScopeSet } from '../auth/scopes.js';
import { WharfError } from '../errors/wharf-error.js';
import type { ConfigSource } from '../settings/config-source.js';

export const REFERENCE_TOKEN_KEY = 'Auth:ReferenceRequiresToken';

export function readReferenceRequiresToken(source: ConfigSource): boolean {
  return source.bool(REFERENCE_TOKEN_KEY);
}

/** `*`, or `read` among the method scopes (a token with only endpoint patterns is not enough). */
export function scopeReadsReference(scopes: ScopeSet): boolean {
  return scopes.all || (scopes.methods?.has('GET') ?? false);
}

/** What checks a bearer token: the gateway's token service and JWT verifier. */
export type ReferenceTokenCheck = Pick<AccessRuntime, 'tokens' | 'jwt'>;

export function requireReferenceToken(scope: FastifyInstance, access: ReferenceTokenCheck): void {
  scope.addHook('onRequest', async (request) => {
    const principal = await authenticate(request.headers.authorization, access.tokens, access.jwt);
    if (!scopeReadsReference(principal.scopes)) {
      throw new WharfError('AUTH_SCOPE_DENIED', { method: request.method, endpoint: request.url.split('?')[0] ?? request.url });
    }
  });
}
