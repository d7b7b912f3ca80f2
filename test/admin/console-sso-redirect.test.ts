/**
 * WebUi:Oidc:RedirectUri: the callback URL the console sends to the provider. Behind a reverse
 * proxy or TLS terminator the request's own protocol and Host are not the public ones (and a client
 * picks its Host), so a configured RedirectUri is used whatever the request says; without it the
 * URL is built from the request. Malformed values stop startup with the key's name.
 * (The whole sign-in flow runs in Chromium: console-sso-browser.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type LocalIdp } from '../setup/oidc.js';
import { startSqlTestServer, type SqlTestServer } from '../sql/http-server.js';

const CLIENT = { client_id: 'wharf-console', client_secret: 'console-client-secret-0123456789' };
const PUBLIC_CALLBACK = 'https://gateway.example.com/wharf/ui/api/auth/oidc/callback';

let idp: LocalIdp;
const servers: SqlTestServer[] = [];

function settings(redirectUri: string): Record<string, unknown> {
  return {
    Auth: { Jwt: { Issuer: idp.issuer, Audience: 'wharf-api' } },
    WebUi: { SeedPassword: 'seed-password-for-tests-1', Oidc: { Enabled: true, ClientId: CLIENT.client_id, ClientSecret: CLIENT.client_secret, RedirectUri: redirectUri } },
  };
}

async function server(redirectUri: string): Promise<SqlTestServer> {
  const started = await startSqlTestServer('postgres://postgres@127.0.0.1:9/none', 9, { environments: ['demo'], logger: false, settings: settings(redirectUri) });
  servers.push(started);
  return started;
}

/** The redirect_uri of the provider URL that /ui/api/auth/oidc/start sends the browser to. */
async function sentRedirectUri(app: SqlTestServer['app'], host: string): Promise<string | null> {
  const response = await app.inject({ method: 'GET', url: '/ui/api/auth/oidc/start', headers: { host } });
  expect(response.statusCode).toBe(302);
  const location = new URL(String(response.headers['location']));
  expect(location.href.startsWith(idp.issuer)).toBe(true);
  return location.searchParams.get('redirect_uri');
}

beforeAll(async () => {
  idp = await startOidcProvider({
    audience: 'wharf-api',
    scopes: ['read'],
    clients: [{ ...CLIENT, scope: 'openid profile', redirect_uris: [PUBLIC_CALLBACK, 'http://internal.test:8080/ui/api/auth/oidc/callback'] }],
  });
}, 60_000);

afterAll(async () => {
  for (const started of servers) await started.close();
  await idp?.close();
});

describe('WebUi:Oidc:RedirectUri', () => {
  it('set: the provider gets the configured callback, whatever Host the request names', async () => {
    const { app } = await server(PUBLIC_CALLBACK);
    expect(await sentRedirectUri(app, 'attacker.example')).toBe(PUBLIC_CALLBACK);
    expect(await sentRedirectUri(app, 'internal.test:8080')).toBe(PUBLIC_CALLBACK);
  });

  it('empty (the default): the callback is built from the request protocol and Host', async () => {
    const { app } = await server('');
    expect(await sentRedirectUri(app, 'internal.test:8080')).toBe('http://internal.test:8080/ui/api/auth/oidc/callback');
  });

  it.each([
    ['not a URL', 'gateway.example.com/ui/api/auth/oidc/callback'],
    ['another path', 'https://gateway.example.com/callback'],
    ['credentials', 'https://user:pw@gateway.example.com/ui/api/auth/oidc/callback'],
    ['a query', 'https://gateway.example.com/ui/api/auth/oidc/callback?x=1'],
    ['another scheme', 'javascript://gateway.example.com/ui/api/auth/oidc/callback'],
  ])('a malformed value (%s) stops startup naming the key', async (_case, value) => {
    await expect(server(value)).rejects.toThrow(/WebUi:Oidc:RedirectUri/);
  });
});
