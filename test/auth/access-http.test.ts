/** 401 / 403 / 400 / 200 over HTTP with literal bodies and headers, and the order of the checks. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteTokenStore } from '../../runtime/auth/store/sqlite-store.js';
import { TokenService } from '../../runtime/auth/tokens.js';
import { ClientIpResolver } from '../../runtime/traffic/client-ip.js';
import { MemoryCounterStore } from '../../runtime/traffic/counter-store.js';
import { RateLimiter } from '../../runtime/traffic/rate-limiter.js';
import { buildMiniGateway } from './mini-gateway.js';

const DAY = 86_400_000;
let dir: string;
let store: SqliteTokenStore;
let app: FastifyInstance;
let clock = Date.UTC(2026, 0, 1);
const tokens: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'wharf-access-'));
  store = new SqliteTokenStore(path.join(dir, 'auth.db'));
  const service = new TokenService(store, { now: () => clock });
  const make = async (username: string, allowedScopes: string, allowedEnvironments = '*', expiresInDays?: number) => {
    const issued = await service.create({ username, allowedScopes, allowedEnvironments, expiresInDays: expiresInDays ?? null });
    tokens[username] = issued.token;
    return issued.record.id;
  };
  await make('all', '*');
  await make('reader', 'read');
  await make('writer', 'write');
  await make('inventory', 'Inventory/*');
  await make('inventoryReader', 'read,Inventory/*');
  await make('devOnly', '*', 'dev');
  await make('expiring', '*', '*', 1);
  await service.revoke(await make('revoked', '*'));
  const limiter = new RateLimiter(
    { enabled: true, ipLimit: 1000, ipWindowSeconds: 60, tokenLimit: 1000, tokenWindowSeconds: 60 },
    new MemoryCounterStore(),
  );
  app = await buildMiniGateway({
    control: { tokens: service, clientIp: new ClientIpResolver({ knownProxies: [], knownNetworks: [] }), limiter },
  });
  clock += DAY; // `expiring` is now expired
});

afterAll(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const MISSING = { success: false, error: 'Authentication required' };
const INVALID = { success: false, error: 'Invalid or expired token' };

// [name, request, want status, want body, want headers]
const TABLE: [string, { method?: string; url: string; token?: string; headers?: Record<string, string> }, number, unknown, Record<string, string>][] = [
  ['no Authorization header', { url: '/api/dev/Inventory/Products' }, 401, MISSING, { 'www-authenticate': 'Bearer' }],
  ['Basic scheme', { url: '/api/dev/Inventory/Products', headers: { authorization: 'Basic dXNlcjpwYXNz' } }, 401, MISSING, { 'www-authenticate': 'Bearer' }],
  ['empty Bearer', { url: '/api/dev/Inventory/Products', headers: { authorization: 'Bearer ' } }, 401, MISSING, { 'www-authenticate': 'Bearer' }],
  ['unknown token', { url: '/api/dev/Inventory/Products', headers: { authorization: 'Bearer whf_000000000000_' + 'A'.repeat(43) } }, 401, INVALID, { 'www-authenticate': 'Bearer error="invalid_token"' }],
  ['not a Wharf token', { url: '/api/dev/Inventory/Products', headers: { authorization: 'Bearer abc' } }, 401, INVALID, { 'www-authenticate': 'Bearer error="invalid_token"' }],
  ['expired token', { url: '/api/dev/Inventory/Products', token: 'expiring' }, 401, INVALID, {}],
  ['revoked token', { url: '/api/dev/Inventory/Products', token: 'revoked' }, 401, INVALID, {}],
  ['401 before 400: unauthenticated, env not allowed', { url: '/api/nowhere/Inventory/Products' }, 401, MISSING, {}],
  ['env not on the server list', { url: '/api/nowhere/Inventory/Products', token: 'all' }, 400, { success: false, error: "Environment 'nowhere' is not allowed." }, {}],
  ['token env denied', { url: '/api/prod/Inventory/Products', token: 'devOnly' }, 403, { success: false, error: "Token is not allowed to use environment 'prod'" }, {}],
  ['token env allowed', { url: '/api/DEV/Inventory/Products', token: 'devOnly' }, 200, { success: true, count: 0, value: [] }, {}],
  ['read token GET', { url: '/api/dev/Sales/Orders', token: 'reader' }, 200, { success: true, count: 0, value: [] }, {}],
  ['read token QUERY', { method: 'QUERY', url: '/api/dev/Sales/Orders', token: 'reader', headers: { 'content-type': 'application/json' } }, 200, { success: true, count: 0, value: [] }, {}],
  ['read token POST', { method: 'POST', url: '/api/dev/Sales/Orders', token: 'reader' }, 403, { success: false, error: "Token is not allowed to call POST on 'Sales/Orders'" }, {}],
  ['read token MERGE', { method: 'MERGE', url: '/api/dev/Sales/Orders', token: 'reader' }, 403, { success: false, error: "Token is not allowed to call MERGE on 'Sales/Orders'" }, {}],
  ['write token GET', { url: '/api/dev/Sales/Orders', token: 'writer' }, 403, { success: false, error: "Token is not allowed to call GET on 'Sales/Orders'" }, {}],
  ['write token DELETE', { method: 'DELETE', url: '/api/dev/Sales/Orders', token: 'writer' }, 200, { success: true, message: 'ok' }, {}],
  ['pattern token, its namespace', { method: 'PUT', url: '/api/dev/Inventory/Products', token: 'inventory' }, 200, { success: true, message: 'ok' }, {}],
  ['pattern token, other endpoint', { url: '/api/dev/Accounts', token: 'inventory' }, 403, { success: false, error: "Token is not allowed to call GET on 'Accounts'" }, {}],
  ['read+pattern token, write', { method: 'PATCH', url: '/api/dev/Inventory/Products', token: 'inventoryReader' }, 403, { success: false, error: "Token is not allowed to call PATCH on 'Inventory/Products'" }, {}],
  ['read+pattern token, read', { url: '/api/dev/Inventory/Products', token: 'inventoryReader' }, 200, { success: true, count: 0, value: [] }, {}],
  ['unknown endpoint after auth', { url: '/api/dev/Nope', token: 'all' }, 404, { success: false, error: "Endpoint 'Nope' not found" }, {}],
];

describe('access over HTTP', () => {
  it.each(TABLE)('%s', async (_name, request, status, body, headers) => {
    const response = await app.inject({ method: (request.method ?? 'GET') as 'GET', url: request.url, headers: { ...request.headers, ...(request.token ? { authorization: `Bearer ${tokens[request.token]}` } : {}) }, payload: request.method === 'QUERY' ? '{}' : undefined });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(body);
    for (const [name, value] of Object.entries(headers)) expect(response.headers[name]).toBe(value);
    if (status === 401) expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    else expect(response.headers['www-authenticate']).toBeUndefined();
    expect(response.headers['x-ratelimit-limit']).toBe('1000'); // on every response, refusals too
  });
});
