/**
 * Access control, rate limits and the response cache through the REAL server wiring (buildServer
 * opens the access runtime from the project's settings; no wiring of its own here):
 *   - the order of 401/400/404/403/503/405 (docs/security.md), literal bodies and headers;
 *   - 401 for missing, unknown, revoked and expired tokens;
 *   - 429 (IP before the token, token budget) with Retry-After and X-RateLimit-* literally;
 *   - cache MISS/HIT, ETag and If-None-Match 304 on GET, invalidation by a write;
 *   - two servers sharing one token store and one redis-server: shared cache, revocation bus.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoToken } from '../../runtime/auth/cli.js';
import { TokenService } from '../../runtime/auth/tokens.js';
import { buildServer } from '../../runtime/server.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { EndpointSpec, TempProject } from '../../runtime/testing/generated-fixture.js';
import { DEFAULT_ENVIRONMENTS } from '../../runtime/testing/test-server.js';
import { startRedis } from '../setup/redis.js';
import type { TestRedis } from '../setup/redis.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const ENDPOINTS: readonly EndpointSpec[] = [
  { kind: 'sql', routePath: 'Inventory/Products', methods: ['GET', 'POST', 'QUERY'] },
  { kind: 'sql', routePath: 'Sales/Orders' },
  { kind: 'sql', routePath: 'Finance/Ledger', allowedEnvironments: ['prod'] },
  { kind: 'sql', routePath: 'Maintenance/Archive', enabled: false },
];

const MISSING = { success: false, error: 'Authentication required' };
const INVALID = { success: false, error: 'Invalid or expired token' };
const DAY = 86_400_000;

type Method = 'GET' | 'POST' | 'DELETE' | 'QUERY';

async function project(serverSettings: unknown): Promise<TempProject> {
  return createTempProject({ generated: { endpoints: ENDPOINTS }, serverSettings, environments: DEFAULT_ENVIRONMENTS });
}

function server(fixture: TempProject, dataDir: string): Promise<FastifyInstance> {
  return buildServer({
    generatedDir: fixture.generatedDir,
    environmentsDir: fixture.environmentsDir,
    dataDir,
    env: {},
    logger: false,
    handlers: ECHO_HANDLERS,
  });
}

function send(app: FastifyInstance, method: Method, url: string, token?: string, headers: Record<string, string> = {}) {
  return app.inject({ method, url, headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers });
}

describe('two servers sharing one token store and one redis-server', () => {
  let redis: TestRedis;
  let fixture: TempProject;
  let dataDir: string;
  const apps: FastifyInstance[] = [];
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    redis = await startRedis();
    dataDir = mkdtempSync(path.join(tmpdir(), 'wharf-wiring-'));
    fixture = await project({
      Environment: { ServerName: 'test', AllowedEnvironments: ['demo', 'prod'] },
      Auth: { VerificationCacheSeconds: 60 },
      Redis: { Url: redis.url, KeyPrefix: 'wiring:' },
      Caching: { Provider: 'Redis' },
      RateLimiting: { IpLimit: 1000, TokenLimit: 1000 },
    });
    apps.push(await server(fixture, dataDir), await server(fixture, dataDir));
    const service = gatewayOf(apps[0]!).access.tokens;
    tokens['demo'] = (await ensureDemoToken(service))!;
    for (const [username, allowedScopes, allowedEnvironments] of [
      ['reader', 'read', '*'],
      ['demoOnly', '*', 'demo'],
      ['revokeMe', '*', '*'],
      ['revokedHere', '*', '*'],
    ] as const) {
      tokens[username] = (await service.create({ username, allowedScopes, allowedEnvironments })).token;
    }
    // Issued two days ago for one day: expired now.
    const past = new TokenService(gatewayOf(apps[0]!).access.store, { now: () => Date.now() - 2 * DAY });
    tokens['expired'] = (await past.create({ username: 'expired', expiresInDays: 1 })).token;
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await fixture?.cleanup();
    await redis?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (index: number, method: Method, url: string, tokenName?: string, headers: Record<string, string> = {}) =>
    send(apps[index]!, method, url, tokenName === undefined ? undefined : tokens[tokenName], headers);

  // [name, method, url, token name, status, body, headers]
  const ORDER: [string, Method, string, string | undefined, number, unknown, Record<string, string>][] = [
    ['no token, unknown env: 401 first', 'GET', '/api/nowhere/Inventory/Products', undefined, 401, MISSING, { 'www-authenticate': 'Bearer' }],
    ['another scheme counts as missing', 'GET', '/api/demo/Inventory/Products', undefined, 401, MISSING, { 'www-authenticate': 'Bearer' }],
    ['expired token: 401', 'GET', '/api/demo/Inventory/Products', 'expired', 401, INVALID, { 'www-authenticate': 'Bearer error="invalid_token"' }],
    ['env not on the server list: 400 before 404', 'GET', '/api/nowhere/Nope', 'demo', 400, { success: false, error: "Environment 'nowhere' is not allowed." }, {}],
    ['unknown endpoint: 404 before 403', 'GET', '/api/prod/Nope', 'demoOnly', 404, { success: false, error: "Endpoint 'Nope' not found" }, {}],
    ['endpoint env: 400 before 403', 'GET', '/api/demo/Finance/Ledger', 'reader', 400, { success: false, error: "Environment 'demo' is not allowed for this endpoint." }, {}],
    ['token env: 403', 'GET', '/api/prod/Inventory/Products', 'demoOnly', 403, { success: false, error: "Token is not allowed to use environment 'prod'" }, {}],
    ['403 before 503', 'GET', '/api/prod/Maintenance/Archive', 'demoOnly', 403, { success: false, error: "Token is not allowed to use environment 'prod'" }, {}],
    ['disabled: 503', 'GET', '/api/demo/Maintenance/Archive', 'demo', 503, { success: false, error: 'This endpoint is temporarily disabled.' }, { 'retry-after': '300' }],
    ['scope before method: 403', 'DELETE', '/api/demo/Inventory/Products', 'reader', 403, { success: false, error: "Token is not allowed to call DELETE on 'Inventory/Products'" }, {}],
    ['method after scope: 405', 'DELETE', '/api/demo/Inventory/Products', 'demo', 405, { success: false, error: "Method 'DELETE' is not allowed for this endpoint." }, { allow: 'GET, HEAD, POST, QUERY, OPTIONS' }],
    ['allowed: 200', 'GET', '/api/demo/Sales/Orders', 'reader', 200, { endpoint: 'sql:Sales/Orders', target: { kind: 'collection' }, env: 'demo', method: 'GET', body: null }, {}],
  ];
  it.each(ORDER)('%s', async (name, method, url, tokenName, status, body, headers) => {
    const extra: Record<string, string> = name.startsWith('another scheme') ? { authorization: 'Basic dXNlcjpwYXNz' } : {};
    const response = await call(0, method, url, tokenName, extra);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual(body);
    for (const [header, value] of Object.entries(headers)) expect(response.headers[header], header).toBe(value);
    expect(response.headers['x-ratelimit-limit']).toBe('1000');
    expect(response.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(response.headers['x-ratelimit-reset']).toMatch(/^\d{10}$/);
  });

  it('GET: MISS, then HIT with the same ETag, then 304 for If-None-Match', async () => {
    const url = '/api/demo/Sales/Orders?$top=3';
    const first = await call(0, 'GET', url, 'demo');
    expect([first.statusCode, first.headers['x-cache']]).toEqual([200, 'MISS']);
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const second = await call(0, 'GET', url, 'demo');
    expect([second.statusCode, second.headers['x-cache'], second.headers['etag'], second.body]).toEqual([200, 'HIT', etag, first.body]);
    const revalidated = await call(0, 'GET', url, 'demo', { 'if-none-match': etag });
    expect([revalidated.statusCode, revalidated.body, revalidated.headers['etag']]).toEqual([304, '', etag]);
    expect(revalidated.headers['x-ratelimit-limit']).toBe('1000');
    const other = await call(0, 'GET', url, 'demo', { 'if-none-match': '"something-else"' });
    expect(other.statusCode).toBe(200);
  });

  it('QUERY bodies are part of the key; refusals are never cached', async () => {
    const url = '/api/demo/Inventory/Products';
    const json = { 'content-type': 'application/json' };
    const a = await apps[0]!.inject({ method: 'QUERY', url, headers: { ...json, authorization: `Bearer ${tokens['demo']}` }, payload: '{"top":1}' });
    const b = await apps[0]!.inject({ method: 'QUERY', url, headers: { ...json, authorization: `Bearer ${tokens['demo']}` }, payload: '{"top":2}' });
    expect([a.headers['x-cache'], b.headers['x-cache']]).toEqual(['MISS', 'MISS']);
    expect(b.json().body).toEqual({ top: 2 });
    const refused = await call(0, 'GET', '/api/prod/Inventory/Products', 'demoOnly');
    expect([refused.statusCode, refused.headers['x-cache']]).toEqual([403, undefined]);
  });

  it('shares the cache between the two servers; a write through one invalidates both', async () => {
    const url = '/api/demo/Inventory/Products?$top=5';
    const first = await call(0, 'GET', url, 'demo');
    expect([first.statusCode, first.headers['x-cache']]).toEqual([200, 'MISS']);
    const second = await call(1, 'GET', url, 'demo');
    expect([second.headers['x-cache'], second.body, second.headers['etag']]).toEqual(['HIT', first.body, first.headers['etag']]);
    expect((await call(1, 'POST', '/api/demo/Inventory/Products', 'demo')).statusCode).toBe(200);
    expect((await call(0, 'GET', url, 'demo')).headers['x-cache']).toBe('MISS');
  });

  it('a revoked token is refused on the next request of the same server', async () => {
    const url = '/api/demo/Sales/Orders';
    expect((await call(0, 'GET', url, 'revokedHere')).statusCode).toBe(200);
    const verified = await gatewayOf(apps[0]!).access.tokens.verify(tokens['revokedHere']!);
    if (!verified.ok) throw new Error('expected a valid token');
    await gatewayOf(apps[0]!).access.tokens.revoke(verified.principal.tokenId);
    const response = await call(0, 'GET', url, 'revokedHere');
    expect([response.statusCode, response.json(), response.headers['www-authenticate']]).toEqual([401, INVALID, 'Bearer error="invalid_token"']);
  });

  it('a revocation on one server reaches the other at once through Redis', async () => {
    const url = '/api/demo/Sales/Orders';
    expect((await call(1, 'GET', url, 'revokeMe')).statusCode).toBe(200); // verification cached 60 s on server 2
    const verified = await gatewayOf(apps[0]!).access.tokens.verify(tokens['revokeMe']!);
    if (!verified.ok) throw new Error('expected a valid token');
    await gatewayOf(apps[0]!).access.tokens.revoke(verified.principal.tokenId);
    expect((await call(0, 'GET', url, 'revokeMe')).statusCode).toBe(401);
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 401; attempt += 1) {
      status = (await call(1, 'GET', url, 'revokeMe')).statusCode;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(401);
  });
});

describe('rate limits through the server', () => {
  let fixture: TempProject;
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    fixture = await project({
      Environment: { AllowedEnvironments: ['demo'] },
      RateLimiting: { IpLimit: 5, IpWindow: 60, TokenLimit: 2, TokenWindow: 30 },
    });
    app = await server(fixture, path.join(fixture.root, 'data'));
    token = (await gatewayOf(app).access.tokens.create({ username: 'limited' })).token;
  });
  afterAll(async () => {
    await app?.close();
    await fixture?.cleanup();
  });

  it('token budget, then the IP budget (checked before the token, so 429 comes before 401)', async () => {
    const url = '/api/demo/Sales/Orders';
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await send(app, 'GET', url, token);
      statuses.push(response.statusCode);
      remaining.push(String(response.headers['x-ratelimit-remaining']));
      expect(response.headers['x-ratelimit-limit']).toBe('2');
    }
    expect([statuses, remaining]).toEqual([[200, 200], ['1', '0']]);

    const before = Math.floor(Date.now() / 1000);
    const limited = await send(app, 'GET', url, token);
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    const reset = Number(limited.headers['x-ratelimit-reset']);
    expect(reset - before).toBeGreaterThanOrEqual(retryAfter - 1);
    expect(reset - before).toBeLessThanOrEqual(retryAfter + 1);
    expect({ ...limited.headers, date: undefined, 'retry-after': undefined, 'x-ratelimit-reset': undefined }).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-resource': 'token',
    });
    expect(limited.json()).toEqual({ success: false, error: `Too many requests. Retry after ${retryAfter} seconds.` });

    // 3 requests of the IP budget of 5 are spent: two more pass admission (401 without a token) ...
    expect((await send(app, 'GET', url)).statusCode).toBe(401);
    const last = await send(app, 'GET', url);
    expect([last.statusCode, last.headers['x-ratelimit-limit'], last.headers['x-ratelimit-remaining']]).toEqual([401, '5', '0']);
    // ... and the sixth is refused by the IP limit before the token is even looked at.
    const ip = await send(app, 'GET', url);
    expect([ip.statusCode, ip.headers['x-ratelimit-resource'], ip.headers['x-ratelimit-limit'], ip.headers['www-authenticate']]).toEqual([429, 'ip', '5', undefined]);
    expect(ip.json()).toEqual({ success: false, error: `Too many requests. Retry after ${ip.headers['retry-after']} seconds.` });
    // Open routes are not counted or limited.
    expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
  });
});
