/**
 * The access, rate-limit and cache stages wired into the REAL runtime server (buildServer), the way
 * the server should wire them (see docs/security.md): two instances sharing one token store and one
 * redis-server. Checks the order of 401/400/404/403/405, headers on every response, shared cache
 * invalidation and immediate revocation through the Redis bus.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installAccessControl } from '../../runtime/auth/access-hooks.js';
import { createAccessRuntime, readAccessSettings } from '../../runtime/auth/access-runtime.js';
import type { AccessRuntime } from '../../runtime/auth/access-runtime.js';
import { ensureDemoToken } from '../../runtime/auth/cli.js';
import { withAccessStages } from '../../runtime/auth/pipeline-stages.js';
import { installResponseCache } from '../../runtime/cache/cache-hooks.js';
import { API_STAGES } from '../../runtime/pipeline/stages.js';
import { buildServer } from '../../runtime/server.js';
import { ConfigSource } from '../../runtime/settings/config-source.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { TempProject } from '../../runtime/testing/generated-fixture.js';
import { DEFAULT_ENVIRONMENTS } from '../../runtime/testing/test-server.js';
import { startRedis } from '../setup/redis.js';
import type { TestRedis } from '../setup/redis.js';

let redis: TestRedis;
let project: TempProject;
let dataDir: string;
const servers: { app: FastifyInstance; access: AccessRuntime }[] = [];
let demoToken: string;
const tokens: Record<string, string> = {};

async function server(): Promise<{ app: FastifyInstance; access: AccessRuntime }> {
  const source = ConfigSource.from(
    {
      Auth: { VerificationCacheSeconds: 60 },
      Redis: { Url: redis.url, KeyPrefix: 'wiring:' },
      Caching: { Provider: 'Redis' },
      RateLimiting: { IpLimit: 1000, TokenLimit: 1000 },
    },
    'test settings',
    {},
  );
  const access = await createAccessRuntime(readAccessSettings(source, dataDir));
  const app = await buildServer({
    generatedDir: project.generatedDir,
    environmentsDir: project.environmentsDir,
    env: {},
    logger: false,
    handlers: ECHO_HANDLERS,
    stages: withAccessStages(API_STAGES, access.cache),
  });
  installAccessControl(app, { control: access.control });
  installResponseCache(app, { cache: access.cache });
  const entry = { app, access };
  servers.push(entry);
  return entry;
}

beforeAll(async () => {
  redis = await startRedis();
  dataDir = mkdtempSync(path.join(tmpdir(), 'wharf-wiring-'));
  project = await createTempProject({
    generated: {
      endpoints: [
        { kind: 'sql', routePath: 'Inventory/Products', methods: ['GET', 'POST', 'QUERY'] },
        { kind: 'sql', routePath: 'Sales/Orders' },
      ],
    },
    serverSettings: { Environment: { ServerName: 'test', AllowedEnvironments: ['demo', 'prod'] } },
    environments: DEFAULT_ENVIRONMENTS,
  });
  const a = await server();
  await server();
  demoToken = (await ensureDemoToken(a.access.tokens))!;
  for (const [username, allowedScopes, allowedEnvironments] of [
    ['reader', 'read', '*'],
    ['demoOnly', '*', 'demo'],
    ['revokeMe', '*', '*'],
  ] as const) {
    tokens[username] = (await a.access.tokens.create({ username, allowedScopes, allowedEnvironments })).token;
  }
});

afterAll(async () => {
  for (const { app, access } of servers) {
    await app.close();
    await access.close();
  }
  await project?.cleanup();
  await redis.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (index: number, method: string, url: string, token?: string) =>
  servers[index]!.app.inject({
    method: method as 'GET',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('through the runtime server', () => {
  // [name, method, url, token name, status, body]
  const ORDER: [string, string, string, string | null, number, unknown][] = [
    ['no token, unknown env: 401 first', 'GET', '/api/nowhere/Inventory/Products', null, 401, { success: false, error: 'Authentication required' }],
    ['env not on the server list: 400', 'GET', '/api/nowhere/Inventory/Products', 'demo', 400, { success: false, error: "Environment 'nowhere' is not allowed." }],
    ['unknown endpoint: 404', 'GET', '/api/demo/Nope', 'demo', 404, { success: false, error: "Endpoint 'Nope' not found" }],
    ['token env: 403', 'GET', '/api/prod/Inventory/Products', 'demoOnly', 403, { success: false, error: "Token is not allowed to use environment 'prod'" }],
    ['scope before method: 403', 'DELETE', '/api/demo/Inventory/Products', 'reader', 403, { success: false, error: "Token is not allowed to call DELETE on 'Inventory/Products'" }],
    ['method after scope: 405', 'DELETE', '/api/demo/Inventory/Products', 'demo', 405, { success: false, error: "Method 'DELETE' is not allowed for this endpoint." }],
    ['allowed: 200', 'GET', '/api/demo/Inventory/Products', 'reader', 200, { endpoint: 'sql:Inventory/Products', target: { kind: 'collection' }, env: 'demo', method: 'GET', body: null }],
  ];
  it.each(ORDER)('%s', async (_name, method, url, tokenName, status, body) => {
    const token = tokenName === null ? undefined : tokenName === 'demo' ? demoToken : tokens[tokenName];
    const response = await call(0, method, url, token);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual(body);
    expect(response.headers['x-ratelimit-limit']).toBe('1000');
  });

  it('shares the cache between the two servers; a write through one invalidates both', async () => {
    const url = '/api/demo/Inventory/Products?$top=5';
    const first = await call(0, 'GET', url, demoToken);
    expect([first.statusCode, first.headers['x-cache']]).toEqual([200, 'MISS']);
    expect(first.headers['etag']).toMatch(/^"[0-9a-f]{64}"$/);
    const second = await call(1, 'GET', url, demoToken);
    expect([second.headers['x-cache'], second.body, second.headers['etag']]).toEqual(['HIT', first.body, first.headers['etag']]);
    expect((await call(1, 'POST', '/api/demo/Inventory/Products', demoToken)).statusCode).toBe(200);
    expect((await call(0, 'GET', url, demoToken)).headers['x-cache']).toBe('MISS');
  });

  it('a revocation on one server reaches the other at once through Redis', async () => {
    const url = '/api/demo/Sales/Orders';
    const token = tokens['revokeMe']!;
    expect((await call(1, 'GET', url, token)).statusCode).toBe(200); // cached for 60 s on server 2
    const id = (await servers[0]!.access.tokens.verify(token)) as { ok: true; principal: { tokenId: number } };
    await servers[0]!.access.tokens.revoke(id.principal.tokenId);
    expect((await call(0, 'GET', url, token)).statusCode).toBe(401);
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 401; attempt += 1) {
      status = (await call(1, 'GET', url, token)).statusCode;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(401);
  });
});
