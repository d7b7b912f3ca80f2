/**
 * JWT bearer tokens of an OpenID Connect provider, through the real server wiring (buildServer with
 * Auth:Jwt:* settings) and a real provider on loopback (oidc-provider, test/setup/oidc.ts):
 * provider-issued tokens, forged and broken ones, key rotation, the refresh cooldown, a provider
 * outage, scopes/environments claims, the rate limit per iss+sub, and Wharf's own tokens beside JWTs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../runtime/server.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { EndpointSpec, TempProject } from '../../runtime/testing/generated-fixture.js';
import { DEFAULT_ENVIRONMENTS } from '../../runtime/testing/test-server.js';
import { hmacWithPublicKey, newSigningKey, signToken, startOidcProvider, unsignedToken } from '../setup/oidc.js';
import type { LocalIdp } from '../setup/oidc.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const AUDIENCE = 'http://wharf.test/api';
const ENDPOINTS: readonly EndpointSpec[] = [
  { kind: 'sql', routePath: 'Sales/Orders', methods: ['GET', 'POST'] },
  { kind: 'sql', routePath: 'Inventory/Products', methods: ['GET', 'POST'] },
];
const INVALID = { success: false, error: 'Invalid or expired token' };
const INVALID_HEADER = 'Bearer error="invalid_token"';

describe('JWT bearer tokens from an OpenID Connect provider', () => {
  let idp: LocalIdp;
  let fixture: TempProject;
  const dirs: string[] = [];
  const apps: FastifyInstance[] = [];

  async function server(env: Record<string, string> = {}): Promise<FastifyInstance> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wharf-jwt-'));
    dirs.push(dataDir);
    const app = await buildServer({
      generatedDir: fixture.generatedDir,
      environmentsDir: fixture.environmentsDir,
      dataDir,
      env: { Auth__Jwt__Issuer: idp.issuer, ...env },
      logger: false,
      handlers: ECHO_HANDLERS,
    });
    apps.push(app);
    return app;
  }

  const get = (app: FastifyInstance, token: string, url = '/api/demo/Sales/Orders', method: 'GET' | 'POST' = 'GET') =>
    app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(method === 'POST' ? { payload: {} } : {}) });
  const jwksFetches = () => idp.served.filter((line) => line === 'GET /jwks').length;

  beforeAll(async () => {
    idp = await startOidcProvider({
      audience: AUDIENCE,
      scopes: ['read', 'write', 'Sales/*'],
      clients: [
        { client_id: 'reader', client_secret: 'reader-secret-reader-secret-reader', scope: 'read write Sales/*', claims: { wharf_envs: ['demo'] } },
        { client_id: 'other', client_secret: 'other-secret-other-secret-other-xx', scope: 'read', claims: { wharf_envs: 'demo prod' } },
      ],
    });
    fixture = await createTempProject({
      generated: { endpoints: ENDPOINTS },
      serverSettings: {
        Environment: { ServerName: 'test', AllowedEnvironments: ['demo', 'prod'] },
        // KeysTimeoutMs: a loaded test machine must not turn a key fetch into a 503 (the fault tests set 1000)
        Auth: { Jwt: { Audience: AUDIENCE, EnvironmentsClaim: 'wharf_envs', KeysCooldownSeconds: 0, KeysTimeoutMs: 15000 } },
        RateLimiting: { IpLimit: 1000, TokenLimit: 1000 },
        Caching: { Enabled: false },
      },
      environments: DEFAULT_ENVIRONMENTS,
    });
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await fixture?.cleanup();
    await idp?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a token the provider issued is accepted; its scopes and environments claims apply', async () => {
    const app = await server();
    const token = await idp.token('reader', 'read Sales/*');
    const ok = await get(app, token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ endpoint: 'sql:Sales/Orders', env: 'demo', method: 'GET' });
    // discovery once, then the keys
    expect(idp.served.filter((line) => line.startsWith('GET /.well-known/openid-configuration')).length).toBeGreaterThanOrEqual(1);
    expect((await get(app, token, '/api/demo/Inventory/Products')).json()).toEqual({
      success: false,
      error: "Token is not allowed to call GET on 'Inventory/Products'",
    });
    expect((await get(app, token, '/api/demo/Sales/Orders', 'POST')).statusCode).toBe(403);
    expect((await get(app, token, '/api/prod/Sales/Orders')).json()).toEqual({ success: false, error: "Token is not allowed to use environment 'prod'" });
    const other = await idp.token('other', 'read');
    expect((await get(app, other, '/api/prod/Inventory/Products')).statusCode).toBe(200);
  });

  it('refuses broken and forged tokens with 401, the spec body and WWW-Authenticate', async () => {
    const app = await server();
    const stranger = await newSigningKey('RS256', 'stranger');
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, string][] = [
      ['expired', await signToken(idp, AUDIENCE, { exp: now - 600, scope: 'read' }), 'Bearer error="invalid_token", error_description="The token has expired"'],
      ['not yet valid', await signToken(idp, AUDIENCE, { nbf: now + 600, scope: 'read' }), INVALID_HEADER],
      ['wrong audience', await signToken(idp, 'http://elsewhere/api', { scope: 'read' }), INVALID_HEADER],
      ['wrong issuer', await signToken(idp, AUDIENCE, { iss: 'http://127.0.0.1:1/other', scope: 'read' }), INVALID_HEADER],
      ['unknown kid (a key the provider never published)', await signToken(idp, AUDIENCE, { scope: 'read' }, stranger), INVALID_HEADER],
      ['known kid, other key', await signToken(idp, AUDIENCE, { scope: 'read' }, { ...stranger, kid: idp.keys[0]!.kid }), INVALID_HEADER],
      ['alg none', unsignedToken(idp, AUDIENCE), INVALID_HEADER],
      ['HS256 with the public key as secret', await hmacWithPublicKey(idp, AUDIENCE), INVALID_HEADER],
      ['no sub', await signToken(idp, AUDIENCE, { sub: undefined, scope: 'read' }), INVALID_HEADER],
      ['no exp', await signToken(idp, AUDIENCE, { exp: undefined, scope: 'read' }), INVALID_HEADER],
      ['exp as a string', await signToken(idp, AUDIENCE, { exp: String(now + 300) as never, scope: 'read' }), INVALID_HEADER],
      ['nbf as a string', await signToken(idp, AUDIENCE, { nbf: 'now' as never, scope: 'read' }), INVALID_HEADER],
      ['iat as a string', await signToken(idp, AUDIENCE, { iat: 'now' as never, scope: 'read' }), INVALID_HEADER],
      ['exp past by more than the clock skew', await signToken(idp, AUDIENCE, { exp: now - 31, scope: 'read' }), 'Bearer error="invalid_token", error_description="The token has expired"'],
      ['no aud', await signToken(idp, AUDIENCE, { aud: undefined, scope: 'read' }), INVALID_HEADER],
      ['aud an array without ours', await signToken(idp, AUDIENCE, { aud: ['http://elsewhere/api', 'x'], scope: 'read' }), INVALID_HEADER],
      ['iss an array holding the issuer', await signToken(idp, AUDIENCE, { iss: [idp.issuer] as never, scope: 'read' }), INVALID_HEADER],
      ['sub a number', await signToken(idp, AUDIENCE, { sub: 7 as never, scope: 'read' }), INVALID_HEADER],
      ['tampered payload', (await idp.token('other', 'read')).replace(/\.([^.]+)\./, (_m, p: string) => `.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), scope: 'read write' })).toString('base64url')}.`), INVALID_HEADER],
    ];
    for (const [name, token, header] of cases) {
      const response = await get(app, token);
      expect([name, response.statusCode, response.json(), response.headers['www-authenticate']]).toEqual([name, 401, INVALID, header]);
    }
    // edge values that are valid: exp within the clock skew (30 s), exp far in the future, aud an array holding ours
    for (const payload of [{ exp: now - 10 }, { exp: 1e12 }, { aud: ['http://elsewhere/api', AUDIENCE] }]) {
      expect((await get(app, await signToken(idp, AUDIENCE, { scope: 'read', wharf_envs: ['demo'], ...payload }))).statusCode).toBe(200);
    }
    // OpenID Connect's own scopes are not endpoint patterns (they would close every endpoint)
    const withOidcScopes = await signToken(idp, AUDIENCE, { scope: 'openid profile email read', wharf_envs: ['demo'] });
    expect((await get(app, withOidcScopes)).statusCode).toBe(200);
    // a scope claim given as an array
    const arrayScopes = await signToken(idp, AUDIENCE, { scope: ['read', 'Inventory/*'], wharf_envs: ['demo'] });
    expect((await get(app, arrayScopes, '/api/demo/Inventory/Products')).statusCode).toBe(200);
    expect((await get(app, arrayScopes)).statusCode).toBe(403);
    // a token without the environments claim may use no environment
    const noEnvs = await signToken(idp, AUDIENCE, { scope: 'read' });
    expect((await get(app, noEnvs)).json()).toEqual({ success: false, error: "Token is not allowed to use environment 'demo'" });
  });

  it('rotated keys: an unknown kid fetches the keys again, once', async () => {
    const app = await server();
    expect((await get(app, await idp.token('reader', 'read Sales/*'))).statusCode).toBe(200);
    const before = jwksFetches();
    await idp.rotate();
    const fresh = await idp.token('reader', 'read Sales/*');
    expect((await get(app, fresh)).statusCode).toBe(200);
    expect((await get(app, fresh)).statusCode).toBe(200);
    expect(jwksFetches()).toBe(before + 1);
  });

  it('the refresh for unknown kids is rate-limited (Auth:Jwt:KeysCooldownSeconds)', async () => {
    const app = await server({ Auth__Jwt__KeysCooldownSeconds: '3600' });
    expect((await get(app, await idp.token('reader', 'read Sales/*'))).statusCode).toBe(200);
    const before = jwksFetches();
    const stranger = await newSigningKey('RS256', 'stranger-2');
    for (let i = 0; i < 3; i += 1) {
      expect((await get(app, await signToken(idp, AUDIENCE, { scope: 'read', wharf_envs: 'demo' }, stranger))).statusCode).toBe(401);
    }
    expect(jwksFetches()).toBe(before);
  });

  it('a provider outage does not stall requests: cached keys serve, unknown kids wait a bounded time', async () => {
    const app = await server({ Auth__Jwt__KeysTimeoutMs: '1000' });
    const token = await idp.token('reader', 'read Sales/*');
    expect((await get(app, token)).statusCode).toBe(200);
    const stranger = await signToken(idp, AUDIENCE, { scope: 'read', wharf_envs: 'demo' }, await newSigningKey('RS256', 'stranger-3'));
    idp.setReachable('hang');
    try {
      expect((await get(app, token)).statusCode).toBe(200);
      const started = Date.now();
      const refused = await get(app, stranger);
      expect(refused.statusCode).toBe(401);
      expect(Date.now() - started).toBeLessThan(5000); // one bounded fetch (1 s), not a stall
    } finally {
      idp.setReachable(true);
    }
  });

  it('keys never fetched (provider down since start): 503 with Retry-After, not a hang or a 500', async () => {
    const app = await server({ Auth__Jwt__KeysTimeoutMs: '1000' });
    const token = await idp.token('reader', 'read Sales/*');
    idp.setReachable(false);
    try {
      const response = await get(app, token);
      expect([response.statusCode, response.json(), response.headers['retry-after']]).toEqual([
        503,
        { success: false, error: "The identity provider's signing keys are not available. Retry shortly." },
        '5',
      ]);
    } finally {
      idp.setReachable(true);
    }
  });

  it('keys never fetched, provider hanging: after one bounded wait, the next JWTs get their 503 at once; keys load when it answers', async () => {
    const app = await server({ Auth__Jwt__KeysTimeoutMs: '3000' });
    const token = await idp.token('reader', 'read Sales/*');
    idp.setReachable('hang');
    try {
      expect((await get(app, token)).statusCode).toBe(503); // waited for the discovery's deadline
      const started = Date.now();
      const again = await get(app, token);
      expect([again.statusCode, again.headers['retry-after']]).toEqual([503, '5']);
      expect(Date.now() - started).toBeLessThan(2000); // not another 3 s (or 6 s, with discovery) per request
    } finally {
      idp.setReachable(true);
    }
    await gatewayOf(app).health.refresh(); // the health run fetches regardless
    expect((await get(app, token)).statusCode).toBe(200);
  });

  it('/health/details reports the provider: Healthy, Degraded with cached keys while it hangs, Degraded without keys when down since start', async () => {
    type Check = { name: string; status: string; description: string; data: Record<string, unknown>; tags: string[] };
    // the fixture's databases are not running, so the overall status is theirs: only this check is asserted
    const provider = async (app: FastifyInstance): Promise<[number, Check | undefined]> => {
      await gatewayOf(app).health.refresh(); // a run now, not the report cached by the refresh interval
      const admin = (await gatewayOf(app).access.tokens.create({ username: `health-${Math.random().toString(36).slice(2)}`, allowedScopes: '*', allowedEnvironments: '*' })).token;
      const response = await app.inject({ url: '/health/details', headers: { authorization: `Bearer ${admin}` } });
      return [response.statusCode, (response.json() as { checks: Check[] }).checks.find((c) => c.name === 'IdentityProvider')];
    };
    const app = await server({ Auth__Jwt__KeysTimeoutMs: '1000' });
    const token = await idp.token('reader', 'read Sales/*');
    const [, healthy] = await provider(app);
    expect(healthy).toMatchObject({ status: 'Healthy', tags: ['auth', 'jwt'], data: { issuer: idp.issuer, keys: 1 } });
    expect(healthy?.data['responseTime']).toMatch(/^\d+\.\d{2}ms$/);
    // the probe replaces no keys: a verified token stays remembered across health runs
    expect((await get(app, token)).statusCode).toBe(200);
    // the first /health/details started the monitor, whose first run is under way in the background:
    // wait for it, or the next refresh joins it and fetches nothing (seen under load)
    await gatewayOf(app).health.refresh();
    const fetches = jwksFetches();
    const [, again] = await provider(app);
    expect(again).toMatchObject({ status: 'Healthy' });
    expect(jwksFetches()).toBe(fetches + 1);
    expect((await gatewayOf(app).access.jwt!.verify(token)) as { cached?: boolean }).toMatchObject({ ok: true, cached: true });

    idp.setReachable('hang');
    try {
      const started = Date.now();
      const [, frozen] = await provider(app);
      expect(Date.now() - started).toBeLessThan(5000); // Auth:Jwt:KeysTimeoutMs, not the freeze
      expect(frozen).toMatchObject({ status: 'Degraded', data: { keys: 1, keysAge: expect.stringMatching(/^\d+ seconds$/) } });
      expect(frozen?.description).toMatch(/keys cached earlier/);
      expect(String(frozen?.data['error'])).toMatch(/abort|timeout/i);
      expect((await get(app, token)).statusCode).toBe(200);
    } finally {
      idp.setReachable(true);
    }

    idp.setReachable(false);
    const cold = await server({ Auth__Jwt__KeysTimeoutMs: '1000' });
    try {
      const [, down] = await provider(cold);
      expect(down).toMatchObject({ status: 'Degraded', data: { keys: 0 } });
      expect(down?.description).toMatch(/answered 503 \(Wharf tokens work\)/);
      await gatewayOf(cold).health.refresh(); // the background run /health/details started, while the provider is still down
    } finally {
      idp.setReachable(true);
    }
    // back: the next run fetches the keys, and JWTs verify at once
    expect((await provider(cold))[1]).toMatchObject({ status: 'Healthy', data: { keys: 1 } });
    expect((await get(cold, token)).statusCode).toBe(200);
  });

  it('a remembered JWT of a withdrawn key stops working once the keys are due (KeysRefreshSeconds), as an unremembered one does', async () => {
    const app = await server({ Auth__Jwt__KeysRefreshSeconds: '10' });
    const token = await idp.token('reader', 'read Sales/*');
    expect((await get(app, token)).statusCode).toBe(200);
    expect((await get(app, token)).statusCode).toBe(200); // remembered
    await idp.rotate(false); // the provider withdraws the key that signed it
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    // the first request past the refresh age starts the background fetch; then the key is gone
    const statuses: number[] = [];
    for (let i = 0; i < 40 && statuses.at(-1) !== 401; i += 1) {
      statuses.push((await get(app, token)).statusCode);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses.at(-1)).toBe(401);
    expect((await get(app, await idp.token('reader', 'read Sales/*'))).statusCode).toBe(200);
  }, 40_000);

  it('Wharf tokens keep working beside JWTs; the per-token rate limit counts iss+sub', async () => {
    const app = await server({ RateLimiting__TokenLimit: '2' });
    const own = (await gatewayOf(app).access.tokens.create({ username: 'own', allowedScopes: 'read' })).token;
    expect((await get(app, own)).statusCode).toBe(200);
    const first = await idp.token('reader', 'read Sales/*');
    const second = await idp.token('reader', 'read Sales/*'); // another token, same iss + sub
    expect(first).not.toBe(second);
    expect((await get(app, first)).statusCode).toBe(200);
    expect((await get(app, second)).statusCode).toBe(200);
    const limited = await get(app, first);
    expect(limited.statusCode).toBe(429);
    expect((await get(app, await idp.token('other', 'read'))).statusCode).toBe(200);
  });

  it('the settings dump reports the provider: features.oidc true, oidc_providers 1', async () => {
    const app = await server();
    const admin = (await gatewayOf(app).access.tokens.create({ username: 'admin' })).token;
    const response = await app.inject({ method: 'GET', url: '/ui/api/settings', headers: { authorization: `Bearer ${admin}` } });
    expect(response.statusCode).toBe(200);
    expect((response.json() as { features: unknown }).features).toEqual({ oidc: true, openapi: true, traffic_logging: false, landing_page: true, oidc_providers: 1 });
  });

  it('a JWT opens the API reference behind Auth:ReferenceRequiresToken like a Wharf token', async () => {
    const app = await server({ Auth__ReferenceRequiresToken: 'true' });
    expect((await app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(401);
    const token = await idp.token('other', 'read');
    const response = await app.inject({ method: 'GET', url: '/openapi.json', headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(200);
  });
});
