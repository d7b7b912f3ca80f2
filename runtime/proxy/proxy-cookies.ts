/**
 * Cookies across the proxy. The gateway's own cookies (the console session `gateway_auth` and
 * `gateway_csrf`, the sign-in's `gateway_signin_csrf`) never leave it: they are cut out of every forwarded `Cookie` header, and an
 * upstream `Set-Cookie` for one of those names never reaches the client. Any other cookie crosses
 * only on an endpoint with `ForwardCookies: true` (both directions); by default an upstream gets no
 * `Cookie` header and the client no `Set-Cookie`. Names compare case-insensitively (and with a
 * `__Host-`/`__Secure-` prefix removed), so no spelling of a gateway cookie slips through.
 */
import { AUTH_COOKIE, CSRF_COOKIE, SIGN_IN_CSRF_COOKIE } from '../admin/cookies.js';

const GATEWAY_COOKIES = new Set([AUTH_COOKIE, CSRF_COOKIE, SIGN_IN_CSRF_COOKIE].map((name) => name.toLowerCase()));

function isGatewayCookie(name: string): boolean {
  return GATEWAY_COOKIES.has(name.trim().toLowerCase().replace(/^__(host|secure)-/, ''));
}

function nameOf(pair: string): string {
  const index = pair.indexOf('=');
  return index < 0 ? pair : pair.slice(0, index);
}

/** The `Cookie` header an upstream receives: undefined unless the endpoint forwards cookies. */
export function upstreamCookie(header: string | string[] | undefined, forwardCookies: boolean): string | undefined {
  if (!forwardCookies || header === undefined) return undefined;
  const pairs = (Array.isArray(header) ? header.join('; ') : header).split(';');
  const kept = pairs.map((pair) => pair.trim()).filter((pair) => pair !== '' && !isGatewayCookie(nameOf(pair)));
  return kept.length > 0 ? kept.join('; ') : undefined;
}

/** The upstream's `Set-Cookie` values the client receives (none unless the endpoint forwards cookies). */
export function downstreamSetCookie(values: string | string[] | undefined, forwardCookies: boolean): string[] {
  if (!forwardCookies || values === undefined) return [];
  return (Array.isArray(values) ? values : [values]).filter((value) => !isGatewayCookie(nameOf(value.split(';')[0]!)));
}
