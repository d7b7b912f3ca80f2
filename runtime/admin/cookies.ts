/** The console cookies: parsing the Cookie header and writing Set-Cookie values. */

export const AUTH_COOKIE = 'gateway_auth';
export const CSRF_COOKIE = 'gateway_csrf';
/**
 * The double-submit cookie of a sign-in (GET /ui/api/auth/csrf), HttpOnly, only on /ui/api/auth:
 * never gateway_csrf, so a link from another site (a top-level GET may set cookies) cannot replace
 * the CSRF value of a signed-in session and make its console writes 403.
 */
export const SIGN_IN_CSRF_COOKIE = 'gateway_signin_csrf';
export const SIGN_IN_CSRF_PATH = '/ui/api/auth';
/** The pending single sign-on flow (state, nonce, PKCE verifier), HttpOnly, 10 minutes, one use. */
export const OIDC_COOKIE = 'gateway_oidc';

export function readCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (!cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

export interface CookieOptions {
  readonly httpOnly: boolean;
  readonly secure: boolean;
  /** Seconds; 0 deletes the cookie. */
  readonly maxAge: number;
  /** Lax only for the single sign-on flow cookie, which must come back on the provider's redirect. */
  readonly sameSite?: 'Strict' | 'Lax';
  readonly path?: string;
}

/** Path / (unless said), SameSite=Strict unless said; values are base64url so they need no escaping. */
export function setCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`, `Max-Age=${options.maxAge}`, `SameSite=${options.sameSite ?? 'Strict'}`];
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
