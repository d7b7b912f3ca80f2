import { describe, expect, it } from 'vitest';
import { ConfigSource } from '../settings/config-source.js';
import { readSignInMethods, roleFromClaims } from './oidc-settings.js';

const source = (file: Record<string, unknown>) => ConfigSource.from(file, 'environments/settings.json', {});
const ISSUER = { Auth: { Jwt: { Issuer: 'https://idp.example', Audience: 'api' } } };

describe('console single sign-on settings', () => {
  it('off by default, local passwords on', () => {
    expect(readSignInMethods(source({}))).toEqual({ oidc: null, localPasswords: true });
  });

  it('refuses at start what would lock everyone out or cannot work', () => {
    expect(() => readSignInMethods(source({ WebUi: { LocalPasswords: false } }))).toThrow('nobody could sign in');
    expect(() => readSignInMethods(source({ WebUi: { Oidc: { Enabled: true, ClientId: 'c' } } }))).toThrow('Auth:Jwt:Issuer');
    expect(() => readSignInMethods(source({ ...ISSUER, WebUi: { Oidc: { Enabled: true } } }))).toThrow('WebUi:Oidc:ClientId');
    expect(() => readSignInMethods(source({ ...ISSUER, WebUi: { Oidc: { Enabled: true, ClientId: 'c', Scopes: 'profile' } } }))).toThrow('openid');
  });

  it('maps the role claim (string, space-separated or array) to administrator or viewer', () => {
    const { oidc } = readSignInMethods(source({ ...ISSUER, WebUi: { Oidc: { Enabled: true, ClientId: 'c', AdministratorRoles: ['ops', 'root'] } } }));
    expect(oidc).toMatchObject({ issuer: 'https://idp.example', clientId: 'c', clientSecret: null, roleClaim: 'roles', scopes: 'openid profile' });
    expect(roleFromClaims({ roles: ['reader', 'ops'] }, oidc!)).toBe('administrator');
    expect(roleFromClaims({ roles: 'reader root' }, oidc!)).toBe('administrator');
    expect(roleFromClaims({ roles: 'operators' }, oidc!)).toBe('viewer');
    expect(roleFromClaims({ roles: [7, { ops: true }] }, oidc!)).toBe('viewer');
    expect(roleFromClaims({}, oidc!)).toBe('viewer');
  });
});
