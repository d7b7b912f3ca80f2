/**
 * Console single sign-on settings (WebUi:Oidc:*, WebUi:LocalPasswords; defaults in
 * schemas/settings.schema.json, table in docs/settings.md). The provider is the one whose JWTs the
 * data API accepts: `Auth:Jwt:Issuer`. Enabled without an issuer or a client id is refused at start.
 */
import type { ConfigSource } from '../settings/config-source.js';

export interface ConsoleOidcSettings {
  readonly issuer: string;
  readonly clientId: string;
  /** null: a public client (PKCE only, token_endpoint_auth_method none). */
  readonly clientSecret: string | null;
  readonly displayName: string;
  readonly scopes: string;
  readonly roleClaim: string;
  readonly administratorRoles: readonly string[];
  readonly createAccounts: boolean;
  /** WebUi:Oidc:RedirectUri; null: built from each request's protocol and Host. */
  readonly redirectUri: string | null;
}

const CALLBACK_PATH = '/ui/api/auth/oidc/callback';

/** WebUi:Oidc:RedirectUri: empty, or an absolute http(s) URL whose path ends in the console's callback. */
function readRedirectUri(value: string): string | null {
  if (value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`WebUi:Oidc:RedirectUri must be an absolute URL (https://host${CALLBACK_PATH}), got '${value}'`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || !url.pathname.endsWith(CALLBACK_PATH)) {
    throw new Error(`WebUi:Oidc:RedirectUri must be an http(s) URL without credentials, query or fragment whose path ends in ${CALLBACK_PATH}, got '${value}'`);
  }
  return url.href;
}

export interface SignInMethods {
  /** null: single sign-on is off. */
  readonly oidc: ConsoleOidcSettings | null;
  readonly localPasswords: boolean;
}

export function readSignInMethods(source: ConfigSource): SignInMethods {
  const localPasswords = source.bool('WebUi:LocalPasswords');
  if (!source.bool('WebUi:Oidc:Enabled')) {
    if (!localPasswords) throw new Error('WebUi:LocalPasswords is false but WebUi:Oidc:Enabled is not: nobody could sign in to the console');
    return { oidc: null, localPasswords };
  }
  const issuer = source.string('Auth:Jwt:Issuer');
  const clientId = source.string('WebUi:Oidc:ClientId');
  if (issuer === '') throw new Error('WebUi:Oidc:Enabled needs Auth:Jwt:Issuer (the OpenID Connect provider)');
  if (clientId === '') throw new Error('WebUi:Oidc:Enabled needs WebUi:Oidc:ClientId');
  const scopes = source.string('WebUi:Oidc:Scopes');
  if (!scopes.split(/\s+/).includes('openid')) throw new Error('WebUi:Oidc:Scopes must include openid');
  const secret = source.string('WebUi:Oidc:ClientSecret');
  return {
    localPasswords,
    oidc: {
      issuer,
      clientId,
      clientSecret: secret === '' ? null : secret,
      displayName: source.string('WebUi:Oidc:DisplayName'),
      scopes,
      roleClaim: source.string('WebUi:Oidc:RoleClaim'),
      administratorRoles: source.stringList('WebUi:Oidc:AdministratorRoles') ?? [],
      createAccounts: source.bool('WebUi:Oidc:CreateAccounts'),
      redirectUri: readRedirectUri(source.string('WebUi:Oidc:RedirectUri')),
    },
  };
}

/** administrator when the role claim (string, space-separated string or array) holds one of AdministratorRoles. */
export function roleFromClaims(claims: Record<string, unknown>, settings: ConsoleOidcSettings): 'administrator' | 'viewer' {
  const value = claims[settings.roleClaim];
  const roles = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return roles.some((role) => settings.administratorRoles.includes(role)) ? 'administrator' : 'viewer';
}
