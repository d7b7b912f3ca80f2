/**
 * Which Authorization rule applies to a request: the first whose scopes the token all holds (a
 * token with scope `*` holds every scope) and whose methods include the request's (HEAD and OPTIONS
 * count as GET). An endpoint with rules and no matching rule is closed to the token (403).
 */
import type { AuthorizationRule, EndpointAuthorization } from '../../contract/model.js';
import type { TokenPrincipal } from '../tokens.js';

function holds(principal: TokenPrincipal, scope: string): boolean {
  const wanted = scope.toLowerCase();
  return principal.grantedScopes.some((granted) => granted.toLowerCase() === wanted);
}

export function selectRule(authorization: EndpointAuthorization, principal: TokenPrincipal, method: string): AuthorizationRule | null {
  const upper = method.toUpperCase() === 'HEAD' || method.toUpperCase() === 'OPTIONS' ? 'GET' : method.toUpperCase();
  for (const rule of authorization.rules) {
    if (rule.methods !== null && !rule.methods.includes(upper as never)) continue;
    if (principal.scopes.all || rule.scopes.every((scope) => holds(principal, scope))) return rule;
  }
  return null;
}
