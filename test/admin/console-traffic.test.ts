/**
 * What the console's charts, Health page, Settings page and sign-in gate read, through the real
 * buildServer: GET /ui/api/traffic (fed by the metrics hook, console requests left out, per
 * endpoint, 400 on a bad query, `enabled: false` without metrics), the live `traffic` event,
 * each health check's history, every writable setting's effective value and source, and
 * GET /ui/api/auth/session answering 200 before sign-in while the other routes keep their 401.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer, DEFAULT_ENVIRONMENTS } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { WRITABLE_SETTINGS } from '../../runtime/admin/writable-settings.js';
import { openSse } from './sse-client.js';
import { buildServer } from '../../runtime/server.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { TempProject } from '../../runtime/testing/generated-fixture.js';
import type { FastifyInstance } from 'fastify';
import { startRedis } from '../setup/redis.js';
import type { TestRedis } from '../setup/redis.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

interface Series {
  readonly enabled: boolean;
  readonly endpoint: string | null;
  readonly t: number[];
  readonly requests: number[];
  readonly error_4xx_percent: (number | null)[];
  readonly latency_p50_ms: (number | null)[];
  readonly totals: Record<string, number>;
  readonly endpoints: string[];
  readonly top_by_traffic: { endpoint: string; requests: number }[];
  readonly top_by_errors: { endpoint: string; errors_4xx: number }[];
}

describe('console charts, health history, effective settings, session', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }, { kind: 'sql', routePath: 'Inventory/Orders' }] },
      handlers: ECHO_HANDLERS,
      environments: { demo: DEFAULT_ENVIRONMENTS.demo },
      serverSettings: {
        Environment: { ServerName: 'charts-demo', AllowedEnvironments: ['demo'] },
        HealthChecks: { CacheTimeSeconds: 1 },
        WebUi: { SeedPassword: 'seed-password-1' },
      },
      env: { HEALTHCHECK_DISK_WARNING: '0', HEALTHCHECK_DISK_CRITICAL: '0', RateLimiting__IpLimit: '777' },
    });
  });
  afterAll(() => server.close());

  const traffic = async (query = ''): Promise<Series> => {
    const response = await server.inject({ method: 'GET', url: `/ui/api/traffic${query}` });
    expect(response.statusCode).toBe(200);
    return response.json() as Series;
  };

  it('GET /ui/api/traffic counts /api requests per endpoint and leaves the console out', async () => {
    const before = await traffic();
    expect(before.enabled).toBe(true);
    expect(before.t).toHaveLength(360);
    for (let i = 0; i < 5; i += 1) expect((await server.inject({ method: 'GET', url: '/api/demo/Inventory/Products' })).statusCode).toBe(200);
    expect((await server.inject({ method: 'GET', url: '/api/demo/Inventory/Orders' })).statusCode).toBe(200);
    // refused after the endpoint resolved: counted under it
    expect((await server.inject({ method: 'DELETE', url: '/api/demo/Inventory/Orders' })).statusCode).toBe(405);
    for (let i = 0; i < 3; i += 1) await server.inject({ method: 'GET', url: '/ui/api/overview' });
    const after = await traffic();
    expect(after.totals['requests']! - before.totals['requests']!).toBe(7);
    // the same labels as wharf_http_requests_total
    expect(after.totals['errors_4xx']! - before.totals['errors_4xx']!).toBe(1);
    expect(after.requests.at(-1)! + after.requests.at(-2)!).toBeGreaterThanOrEqual(7);
    expect(after.top_by_traffic[0]).toMatchObject({ endpoint: 'sql:Inventory/Products', requests: 5 });
    expect(after.top_by_errors[0]).toMatchObject({ endpoint: 'sql:Inventory/Orders', errors_4xx: 1 });
    expect(after.endpoints.some((name) => name.startsWith('/ui'))).toBe(false);
    const one = await traffic(`?endpoint=${encodeURIComponent('sql:Inventory/Orders')}`);
    expect(one.endpoint).toBe('sql:Inventory/Orders');
    expect(one.totals['requests']).toBe(2);
    expect(one.error_4xx_percent.filter((v) => v !== null)).toContain(50);
    expect(one.latency_p50_ms.some((v) => v !== null)).toBe(true);
  });

  it('GET /ui/api/traffic refuses an over-long endpoint with 400 and needs a session (401)', async () => {
    const long = await server.inject({ method: 'GET', url: `/ui/api/traffic?endpoint=${'x'.repeat(501)}` });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ field: 'endpoint' });
    const anonymous = await server.app.inject({ method: 'GET', url: '/ui/api/traffic' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('sends a live `traffic` event without an id to an open stream', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    const stream = await openSse(`${base}/ui/api/events`, { authorization: `Bearer ${server.token}` });
    try {
      await server.inject({ method: 'GET', url: '/api/demo/Inventory/Products' });
      const event = await Promise.race([
        stream.waitFor((m) => m.event === 'traffic'),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no traffic event within 12 s')), 12_000)),
      ]);
      expect(event.id).toBeUndefined();
      expect(event.data).toEqual({ t: expect.any(Number), requests: expect.any(Number), errors_4xx: expect.any(Number), errors_5xx: expect.any(Number) });
    } finally {
      stream.close();
    }
  }, 20_000);

  it('GET /ui/api/health carries each check’s history', async () => {
    await expect
      .poll(async () => {
        const body = (await server.inject({ method: 'GET', url: '/ui/api/health' })).json() as { checks: { name: string }[]; history: Record<string, { at: number; status: string; ms: number }[]> };
        return body.checks.every((c) => (body.history[c.name]?.length ?? 0) >= 2) && body.checks.length > 0;
      }, { timeout: 10_000, interval: 300 })
      .toBe(true);
    const body = (await server.inject({ method: 'GET', url: '/ui/api/health' })).json() as { history: Record<string, { at: number; status: string; ms: number }[]> };
    for (const samples of Object.values(body.history)) {
      for (const s of samples) expect(s).toEqual({ at: expect.any(Number), status: expect.stringMatching(/^(Healthy|Degraded|Unhealthy)$/), ms: expect.any(Number) });
      expect(samples.map((s) => s.at)).toEqual([...samples.map((s) => s.at)].sort((a, b) => a - b));
    }
  });

  it('GET /ui/api/settings gives every writable key its value in force and source; a console save shows as pending', async () => {
    type Effective = Record<string, { value: unknown; source: string; pending?: unknown }>;
    const read = async () => ((await server.inject({ method: 'GET', url: '/ui/api/settings' })).json() as { effective: Effective }).effective;
    const effective = await read();
    expect(Object.keys(effective).sort()).toEqual(WRITABLE_SETTINGS.map((s) => s.key).sort());
    expect(effective['Environment:ServerName']).toEqual({ value: 'charts-demo', source: 'file' });
    expect(effective['HealthChecks:Enabled']).toEqual({ value: true, source: 'default' });
    expect(effective['HealthChecks:CacheTimeSeconds']).toEqual({ value: 1, source: 'file' });
    expect(effective['RateLimiting:IpLimit']).toEqual({ value: 777, source: 'environment' });
    expect(effective['Logging:MinLevel']).toEqual({ value: 'info', source: 'default' });
    expect(effective['WebUi:PublicOrigins']).toEqual({ value: [], source: 'default' });
    for (const [key, { value }] of Object.entries(effective)) expect(value, key).not.toBeUndefined();

    const saved = await server.inject({ method: 'PUT', url: '/ui/api/settings', payload: { 'Caching:DefaultDurationSeconds': 42, 'Logging:MinLevel': 'warn' } });
    expect(saved.statusCode).toBe(200);
    const next = await read();
    expect(next['Caching:DefaultDurationSeconds']).toEqual({ value: 300, source: 'console', pending: 42 });
    expect(next['Logging:MinLevel']).toEqual({ value: 'warn', source: 'console' });
    // a variable wins over a console value: still `environment`
    expect((await server.inject({ method: 'PUT', url: '/ui/api/settings', payload: { 'RateLimiting:IpLimit': 555 } })).statusCode).toBe(200);
    expect((await read())['RateLimiting:IpLimit']).toEqual({ value: 777, source: 'environment' });
    // nothing else moved
    for (const key of Object.keys(effective)) {
      if (!['Caching:DefaultDurationSeconds', 'Logging:MinLevel'].includes(key)) expect(next[key], key).toEqual(effective[key]);
    }
    await server.inject({ method: 'PUT', url: '/ui/api/settings', payload: { 'Logging:MinLevel': 'info' } });
  });

  it('GET /ui/api/auth/session answers 200 {authenticated:false} before sign-in; other routes keep 401', async () => {
    const anonymous = await server.app.inject({ method: 'GET', url: '/ui/api/auth/session' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ authenticated: false, username: null, role: null, kind: null });
    const badCookie = await server.app.inject({ method: 'GET', url: '/ui/api/auth/session', headers: { cookie: 'gateway_auth=nope' } });
    expect(badCookie.json()).toEqual({ authenticated: false, username: null, role: null, kind: null });
    const token = await server.inject({ method: 'GET', url: '/ui/api/auth/session' });
    expect(token.json()).toEqual({ authenticated: true, username: 'tester', role: 'administrator', kind: 'token' });
    expect((await server.app.inject({ method: 'GET', url: '/ui/api/overview' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/ui/api/health' })).statusCode).toBe(401);
  });
});

describe('console charts without metrics', () => {
  it('GET /ui/api/traffic says the charts need Metrics:Enabled', async () => {
    const server = await createTestServer({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
      handlers: ECHO_HANDLERS,
      environments: {},
      serverSettings: { Environment: { ServerName: 'plain' }, Metrics: { Enabled: false } },
    });
    try {
      const response = await server.inject({ method: 'GET', url: '/ui/api/traffic' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ enabled: false, message: 'Traffic charts need the metrics (Metrics:Enabled is false).' });
    } finally {
      await server.close();
    }
  });
});

describe('two gateway instances on one redis-server', () => {
  let redis: TestRedis;
  let project: TempProject;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    project = await createTempProject({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
      serverSettings: {
        Environment: { ServerName: 'pair', AllowedEnvironments: ['demo'] },
        Redis: { Url: redis.url, KeyPrefix: 'charts:' },
        WebUi: { SeedPassword: 'seed-password-1' },
      },
      environments: { demo: { Provider: 'embedded', ConnectionString: 'embedded://demo' } },
    });
    for (let i = 0; i < 2; i++) {
      apps.push(
        await buildServer({
          generatedDir: project.generatedDir,
          environmentsDir: project.environmentsDir,
          dataDir: `${project.root}/data`,
          env: { HEALTHCHECK_DISK_WARNING: '0', HEALTHCHECK_DISK_CRITICAL: '0' },
          logger: false,
          handlers: ECHO_HANDLERS,
        }),
      );
    }
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await project?.cleanup();
    await redis?.stop();
  });

  it('each console shows the traffic of both instances', async () => {
    const token = (await gatewayOf(apps[0]!).access.tokens.create({ username: 'pair-admin' })).token;
    const headers = { authorization: `Bearer ${token}` };
    const get = (app: FastifyInstance, url: string) => app.inject({ method: 'GET', url, headers });
    for (let i = 0; i < 3; i += 1) expect((await get(apps[0]!, '/api/demo/Inventory/Products')).statusCode).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await get(apps[1]!, '/api/demo/Inventory/Products')).statusCode).toBe(200);
    const seen = async (app: FastifyInstance) => {
      const body = (await get(app, '/ui/api/traffic')).json() as { instances: number; totals: { requests: number } };
      return `${body.instances} instances, ${body.totals.requests} requests`;
    };
    // each instance shares its hour every 5 s
    await expect.poll(() => seen(apps[0]!), { timeout: 20_000, interval: 500 }).toBe('2 instances, 5 requests');
    await expect.poll(() => seen(apps[1]!), { timeout: 20_000, interval: 500 }).toBe('2 instances, 5 requests');
  }, 60_000);
});
