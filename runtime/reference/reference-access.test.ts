/**
 * Auth:ReferenceRequiresToken through the real buildServer: off (default) `/`, `/docs`, a Swagger UI
 * asset and `/openapi.json` are open; on, each needs a bearer token with scope `read` or `*`
 * (401 without or with an invalid one, 403 for `write` or an endpoint pattern only), and
 * `/health/live` stays open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../testing/test-server.js';
import { gatewayOf } from '../gateway-handle.js';

const OPENAPI = { openapi: '3.1.0', info: { title: 'Wharf test', version: '1' }, paths: {} };
const URLS = ['/', '/docs', '/docs/', '/docs/swagger-ui.css', '/docs/wharf-reference.js', '/openapi.json'];

function serverWith(settings: Record<string, unknown>): Promise<TestServer> {
  return createTestServer({
    generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }], sourceHash: 'ref-hash', openapi: OPENAPI },
    serverSettings: { Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] }, ...settings },
  });
}

describe('Auth:ReferenceRequiresToken off (default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWith({});
  });
  afterAll(async () => server.close());

  it.each(URLS)('%s is open', async (url) => {
    expect((await server.app.inject({ url })).statusCode).toBe(200);
  });
});

describe('Auth:ReferenceRequiresToken true', () => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    server = await serverWith({ Auth: { ReferenceRequiresToken: true } });
    for (const scopes of ['read', 'write', 'Inventory/*', 'read,Inventory/*']) {
      tokens[scopes] = (await gatewayOf(server.app).access.tokens.create({ username: `ref-${scopes.length}`, allowedScopes: scopes })).token;
    }
  });
  afterAll(async () => server.close());
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it.each(URLS)('%s: 401 without a token, then 200 with scope * or read', async (url) => {
    const none = await server.app.inject({ url });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ success: false, error: 'Authentication required' });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const invalid = await server.app.inject({ url, headers: bearer('whf_nope_nope') });
    expect(invalid.statusCode).toBe(401);
    expect(invalid.json()).toEqual({ success: false, error: 'Invalid or expired token' });
    expect((await server.inject({ url })).statusCode).toBe(200); // scope *
    expect((await server.app.inject({ url, headers: bearer(tokens['read']!) })).statusCode).toBe(200);
    expect((await server.app.inject({ url, headers: bearer(tokens['read,Inventory/*']!) })).statusCode).toBe(200);
  });

  it.each([['write'], ['Inventory/*']])('a token with scope %s is refused 403', async (scopes) => {
    const response = await server.app.inject({ url: '/openapi.json', headers: bearer(tokens[scopes]!) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, error: "Token is not allowed to call GET on '/openapi.json'" });
  });

  it('/health/live stays open', async () => {
    expect((await server.app.inject({ url: '/health/live' })).statusCode).toBe(200);
  });
});
