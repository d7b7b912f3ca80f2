/**
 * /health and /health/details through the real buildServer, against a real PostgreSQL (Database),
 * real loopback upstreams (ProxyEndpoints: 200, 401, 500, a closed port) and the real file system
 * (Diskspace, thresholds through HEALTHCHECK_* variables). Statuses, bodies and cache headers.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { freePort } from '../setup/free-port.js';
import { startPostgres } from '../setup/postgres.js';
import type { TestPostgres } from '../setup/postgres.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

let postgres: TestPostgres;
let upstream: Server;
let base: string;
let closedPort: number;
/** While set, /slow answers only when it is called (lets a test hold a probe open). */
let holdSlow: Promise<void> | null = null;

beforeAll(async () => {
  postgres = await startPostgres();
  upstream = createServer((request, response) => {
    if (request.url === '/slow' && holdSlow) {
      void holdSlow.then(() => response.writeHead(200).end('{}'));
      return;
    }
    const status = request.url === '/needs-auth' ? 401 : request.url === '/broken' ? 500 : 200;
    response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  closedPort = await freePort();
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
  await postgres?.stop();
});

function healthServer(environments: Record<string, unknown>, proxies: { routePath: string; url: string; methods?: ('GET' | 'POST')[] }[], env: Record<string, string> = {}) {
  return createTestServer({
    generated: { endpoints: proxies.map(({ url, ...proxy }) => ({ kind: 'proxy' as const, ...proxy, overrides: { url } })) },
    handlers: ECHO_HANDLERS,
    environments,
    serverSettings: { Environment: { ServerName: 'health', AllowedEnvironments: Object.keys(environments) }, WebUi: { SeedPassword: 'seed-password-1' } },
    env: { HEALTHCHECK_DISK_WARNING: '0', HEALTHCHECK_DISK_CRITICAL: '0', ...env },
  });
}

describe('healthy and degraded', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await healthServer({ main: { Provider: 'postgres', ConnectionString: postgres.url } }, [
      { routePath: 'Up/Ok', url: `${base}/ok` },
      { routePath: 'Up/NeedsAuth', url: `${base}/needs-auth` },
      { routePath: 'Up/PostOnly', url: `${base}/broken`, methods: ['POST'] },
    ]);
  });
  afterAll(() => server.close());

  it('needs a bearer token (401) except /health/live', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/health/details' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/health/live' })).body).toBe('Alive');
  });

  it('/health: Healthy, 200, cached 15 s', async () => {
    const response = await server.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'Healthy', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), cache_expires_in: '15 seconds' });
    expect(response.headers['cache-control']).toBe('public, max-age=15');
    expect(Date.parse(String(response.headers['expires'])) - Date.now()).toBeGreaterThan(10_000);
  });

  it('/health/details: three checks; a 401 upstream counts as reachable; POST-only proxies are not probed', async () => {
    const response = await server.inject({ method: 'GET', url: '/health/details' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    const body = response.json() as Record<string, unknown>;
    const ms = expect.stringMatching(/^\d+\.\d\dms$/);
    expect(body).toEqual({
      status: 'Healthy',
      timestamp: expect.any(String),
      cache_expires_in: '60 seconds',
      totalDuration: ms,
      version: `0.1.0+${gatewayOf(server.app).routes.current.sourceHash.slice(0, 12)}`,
      checks: [
        {
          name: 'Database',
          status: 'Healthy',
          description: 'All database connections are working',
          duration: ms,
          data: { connectionString: 'Configured', responseTime: ms, environments: { main: { status: 'Healthy', responseTime: ms } } },
          tags: ['database', 'sql'],
        },
        {
          name: 'Diskspace',
          status: 'Healthy',
          description: expect.stringMatching(/^Disk space is sufficient \(\d+(\.\d)?% free\)$/),
          duration: ms,
          data: { percentFree: expect.any(Number), freeMegabytes: expect.any(Number) },
          tags: ['storage', 'system'],
        },
        {
          name: 'ProxyEndpoints',
          status: 'Healthy',
          description: 'All 2 proxy endpoints are reachable',
          duration: ms,
          data: {
            'Up/NeedsAuth': { Status: 'Healthy', StatusCode: 401, ReasonPhrase: 'Unauthorized' },
            'Up/Ok': { Status: 'Healthy', StatusCode: 200, ReasonPhrase: 'OK' },
          },
          tags: ['proxies', 'external', 'readiness'],
        },
      ],
    });
    expect(response.body).not.toContain(postgres.url);
  });
});

describe('a failing upstream degrades, a failing database or full disk is unhealthy (503)', () => {
  it('Degraded answers 200 with the failures in data', async () => {
    const server = await healthServer({ main: { Provider: 'postgres', ConnectionString: postgres.url } }, [
      { routePath: 'Up/Ok', url: `${base}/ok` },
      { routePath: 'Up/Broken', url: `${base}/broken` },
      { routePath: 'Up/Gone', url: `http://127.0.0.1:${closedPort}/` },
    ]);
    try {
      const response = await server.inject({ method: 'GET', url: '/health/details' });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { status: string; checks: { name: string; status: string; description: string; data: unknown }[] };
      expect(body.status).toBe('Degraded');
      expect(body.checks[2]).toMatchObject({
        name: 'ProxyEndpoints',
        status: 'Degraded',
        description: '2 of 3 proxy endpoints are unreachable',
        data: {
          'Up/Broken': { Status: 'Unhealthy', StatusCode: 500, ReasonPhrase: 'Internal Server Error' },
          'Up/Gone': { Status: 'Unhealthy', Error: 'ECONNREFUSED' },
          'Up/Ok': { Status: 'Healthy', StatusCode: 200, ReasonPhrase: 'OK' },
        },
      });
      expect((await server.inject({ method: 'GET', url: '/health' })).json()).toMatchObject({ status: 'Degraded' });
    } finally {
      await server.close();
    }
  });

  it('an unreachable database is Unhealthy: 503 on both routes, data.error set; HEALTHCHECK_SKIP_PROXY skips probes', async () => {
    const server = await healthServer(
      { main: { Provider: 'postgres', ConnectionString: postgres.url }, down: { Provider: 'postgres', ConnectionString: `postgres://app:pw@127.0.0.1:${closedPort}/x` } },
      [{ routePath: 'Up/Gone', url: `http://127.0.0.1:${closedPort}/` }],
      { HEALTHCHECK_SKIP_PROXY: 'true' },
    );
    try {
      const health = await server.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ status: 'Unhealthy', cache_expires_in: '15 seconds' });
      const details = await server.inject({ method: 'GET', url: '/health/details' });
      expect(details.statusCode).toBe(503);
      const body = details.json() as { checks: { name: string; status: string; description: string; data: Record<string, unknown> }[] };
      expect(body.checks[0]).toMatchObject({ name: 'Database', status: 'Unhealthy', description: 'Database connection failed for: down' });
      expect(String(body.checks[0]!.data['error'])).toMatch(/^down: /);
      expect(details.body).not.toContain(':pw@');
      expect(body.checks[2]).toMatchObject({ name: 'ProxyEndpoints', status: 'Healthy', description: 'Proxy checks are skipped (HEALTHCHECK_SKIP_PROXY)' });
    } finally {
      await server.close();
    }
  });

  it('an environment outside Environment:AllowedEnvironments is not probed: its database being down changes nothing', async () => {
    const server = await createTestServer({
      generated: { endpoints: [] },
      handlers: ECHO_HANDLERS,
      environments: { main: { Provider: 'postgres', ConnectionString: postgres.url }, retired: { Provider: 'postgres', ConnectionString: `postgres://app:pw@127.0.0.1:${closedPort}/x` } },
      serverSettings: { Environment: { ServerName: 'health', AllowedEnvironments: ['main'] }, WebUi: { SeedPassword: 'seed-password-1' } },
      env: { HEALTHCHECK_DISK_WARNING: '0', HEALTHCHECK_DISK_CRITICAL: '0' },
    });
    try {
      const details = await server.inject({ method: 'GET', url: '/health/details' });
      expect(details.statusCode).toBe(200);
      const body = details.json() as { checks: { name: string; status: string; data: { environments?: Record<string, unknown> } }[] };
      const database = body.checks.find((check) => check.name === 'Database')!;
      expect(database.status).toBe('Healthy');
      expect(Object.keys(database.data.environments ?? {})).toEqual(['main']);
    } finally {
      await server.close();
    }
  });

  it('a request during a slow background refresh gets the cached report at once', async () => {
    const server = await healthServer({}, [{ routePath: 'Up/Slow', url: `${base}/slow` }]);
    try {
      const first = (await server.inject({ method: 'GET', url: '/health/details' })).json() as { timestamp: string };
      let release!: () => void;
      holdSlow = new Promise((resolve) => (release = resolve));
      const refresh = gatewayOf(server.app).health.refresh();
      let refreshed = false;
      void refresh.then(() => (refreshed = true));
      const during = (await server.inject({ method: 'GET', url: '/health/details' })).json() as { timestamp: string };
      expect(refreshed).toBe(false);
      expect(during.timestamp).toBe(first.timestamp);
      release();
      const next = await refresh;
      holdSlow = null;
      const after = (await server.inject({ method: 'GET', url: '/health/details' })).json() as { timestamp: string };
      expect(after.timestamp).toBe(next.timestamp);
    } finally {
      await server.close();
    }
  });

  it('HEALTHCHECK_DISK_WARNING / _CRITICAL set the disk thresholds; a status change emits the health event', async () => {
    const server = await healthServer({}, [], { HEALTHCHECK_DISK_WARNING: '100', HEALTHCHECK_DISK_CRITICAL: '0' });
    try {
      const events: unknown[] = [];
      gatewayOf(server.app).console.events.subscribe((event) => events.push([event.name, event.data]));
      const response = await server.inject({ method: 'GET', url: '/health/details' });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { status: string; checks: { name: string; status: string; description: string }[] };
      expect(body.status).toBe('Degraded');
      expect(body.checks[1]!.description).toMatch(/^Disk space is low \(\d+(\.\d)?% free\)$/);
      expect(body.checks[0]).toMatchObject({ name: 'Database', status: 'Healthy', description: 'No database environments are configured' });
      expect(events).toEqual([['health', { status: 'Degraded' }]]);
    } finally {
      await server.close();
    }
  });
});
