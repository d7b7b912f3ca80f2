import { describe, expect, it } from 'vitest';
import { ConfigSource } from '../../settings/config-source.js';
import { readJwtSettings } from './jwt-settings.js';

const read = (json: unknown, env: Record<string, string> = {}) => readJwtSettings(ConfigSource.from(json, 'settings.json', env));

describe('readJwtSettings', () => {
  it('is off without Auth:Jwt:Issuer', () => {
    expect(read(undefined)).toBeNull();
    expect(read({ Auth: { Jwt: { Issuer: '' } } })).toBeNull();
  });

  it('has the documented defaults', () => {
    expect(read({ Auth: { Jwt: { Issuer: 'https://idp.example', Audience: 'wharf' } } })).toEqual({
      issuer: 'https://idp.example',
      audience: 'wharf',
      jwksUrl: null,
      scopesClaim: 'scope',
      environmentsClaim: null,
      clockSkewSeconds: 30,
      keysRefreshSeconds: 600,
      keysTimeoutMs: 2000,
      keysCooldownSeconds: 30,
    });
  });

  it('reads every key, also from __ variables', () => {
    expect(
      read({ Auth: { Jwt: { Issuer: 'https://idp.example', Audience: 'wharf', ScopesClaim: 'scp' } } }, {
        Auth__Jwt__JwksUrl: 'https://idp.example/keys',
        Auth__Jwt__EnvironmentsClaim: 'envs',
        Auth__Jwt__ClockSkewSeconds: '5',
      }),
    ).toMatchObject({ jwksUrl: 'https://idp.example/keys', scopesClaim: 'scp', environmentsClaim: 'envs', clockSkewSeconds: 5 });
  });

  const BAD: [string, unknown, string][] = [
    ['no audience', { Auth: { Jwt: { Issuer: 'https://idp.example' } } }, "Setting 'Auth:Jwt:Audience' (from settings.json) is required when Auth:Jwt:Issuer is set"],
    ['issuer not a URL', { Auth: { Jwt: { Issuer: 'idp', Audience: 'a' } } }, "Setting 'Auth:Jwt:Issuer' (from settings.json) must be an absolute http(s) URL"],
    ['jwks not http', { Auth: { Jwt: { Issuer: 'https://idp.example', Audience: 'a', JwksUrl: 'file:///etc/keys' } } }, "Setting 'Auth:Jwt:JwksUrl' (from settings.json) must be an absolute http(s) URL"],
    ['skew out of range', { Auth: { Jwt: { Issuer: 'https://idp.example', Audience: 'a', ClockSkewSeconds: 301 } } }, "Setting 'Auth:Jwt:ClockSkewSeconds' (from settings.json) must be 300 or less"],
  ];
  it.each(BAD)('%s', (_name, json, message) => {
    expect(() => read(json)).toThrow(message);
  });
});
