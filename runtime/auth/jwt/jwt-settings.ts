/**
 * Settings of JWT bearer tokens from an OpenID Connect provider (defaults in brackets):
 *   Auth:Jwt:Issuer [none: JWTs off] | Auth:Jwt:Audience [required with Issuer]
 *   Auth:Jwt:JwksUrl [jwks_uri of <Issuer>/.well-known/openid-configuration]
 *   Auth:Jwt:ScopesClaim [scope] | Auth:Jwt:EnvironmentsClaim [none: every environment]
 *   Auth:Jwt:ClockSkewSeconds [30, 0..300]
 *   Auth:Jwt:KeysRefreshSeconds [600, 10..86400]: age after which the keys are fetched again (in the background)
 *   Auth:Jwt:KeysTimeoutMs [2000, 100..30000]: longest wait for the provider (discovery, keys)
 *   Auth:Jwt:KeysCooldownSeconds [30, 0..3600]: least time between two fetches caused by an unknown `kid`
 */
import { WharfError } from '../../errors/wharf-error.js';
import type { ConfigSource } from '../../settings/config-source.js';
import { settingSpec } from '../../contract/settings-registry.js';

export interface JwtSettings {
  readonly issuer: string;
  readonly audience: string;
  /** null: discovered from the issuer. */
  readonly jwksUrl: string | null;
  readonly scopesClaim: string;
  /** null: a JWT may use every environment. */
  readonly environmentsClaim: string | null;
  readonly clockSkewSeconds: number;
  readonly keysRefreshSeconds: number;
  readonly keysTimeoutMs: number;
  readonly keysCooldownSeconds: number;
}

function missing(source: ConfigSource, key: string, reason: string): WharfError {
  return new WharfError('SETTINGS_INVALID_VALUE', { key, source: source.entry(key)?.source ?? source.entry('Auth:Jwt:Issuer')?.source ?? 'defaults', reason });
}

function httpUrl(source: ConfigSource, key: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw missing(source, key, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw missing(source, key, 'must be an absolute http(s) URL');
  return value;
}

/** null when Auth:Jwt:Issuer is absent or empty (Wharf's own tokens only). */
export function readJwtSettings(source: ConfigSource): JwtSettings | null {
  const issuer = source.string('Auth:Jwt:Issuer').trim();
  if (issuer === '') return null;
  httpUrl(source, 'Auth:Jwt:Issuer', issuer);
  const audience = source.string('Auth:Jwt:Audience').trim();
  if (audience === '') throw missing(source, 'Auth:Jwt:Audience', 'is required when Auth:Jwt:Issuer is set');
  const jwksUrl = source.string('Auth:Jwt:JwksUrl').trim();
  const environmentsClaim = source.string('Auth:Jwt:EnvironmentsClaim').trim();
  return {
    issuer,
    audience,
    jwksUrl: jwksUrl === '' ? null : httpUrl(source, 'Auth:Jwt:JwksUrl', jwksUrl),
    scopesClaim: source.string('Auth:Jwt:ScopesClaim').trim() || (settingSpec('Auth:Jwt:ScopesClaim').default as string),
    environmentsClaim: environmentsClaim === '' ? null : environmentsClaim,
    clockSkewSeconds: source.int('Auth:Jwt:ClockSkewSeconds'),
    keysRefreshSeconds: source.int('Auth:Jwt:KeysRefreshSeconds'),
    keysTimeoutMs: source.int('Auth:Jwt:KeysTimeoutMs'),
    keysCooldownSeconds: source.int('Auth:Jwt:KeysCooldownSeconds'),
  };
}
