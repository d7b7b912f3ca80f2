/**
 * The PostgreSQL token store when its database freezes or refuses, through the real buildServer
 * (inject) and a real PostgreSQL: a request whose token must be read gets a clean 503
 * AUTH_STORE_UNAVAILABLE within Auth:Store:CommandTimeoutMs (never waits for the database), the
 * store works again when the database does, and SQL errors of the store are not turned into 503s.
 * /health/details reports the TokenStore check with the spec's check shape, and its Diskspace check
 * does not fail on the data/ folder that a PostgreSQL store never creates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsernameTakenError } from '../../runtime/auth/store/token-store.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';
import { freezePostgres } from '../operations/server-process.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const TIMEOUT_MS = 500;
let postgres: TestPostgres;
let server: TestServer;

beforeAll(async () => {
  postgres = await startPostgres({ sql: 'SELECT 1' });
  server = await createTestServer({
    generated: { endpoints: [{ kind: 'sql', routePath: 'A' }] },
    handlers: ECHO_HANDLERS,
    // no unreachable database environment: the overall health is the token store's and the disk's
    environments: { demo: { Provider: 'embedded', ConnectionString: 'embedded://demo' } },
    env: {
      Auth__Store__Provider: 'Postgres',
      Auth__Store__ConnectionString: postgres.url,
      Auth__Store__CommandTimeoutMs: String(TIMEOUT_MS),
      Auth__VerificationCacheSeconds: '0',
      HEALTHCHECK_SKIP_PROXY: 'true',
      HEALTHCHECK_DISK_WARNING: '0',
      HEALTHCHECK_DISK_CRITICAL: '0',
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await postgres?.stop();
});

describe('PostgreSQL token store faults', () => {
  it('a frozen database (SIGSTOP) gets a 503 within the store deadline, and the store serves again after SIGCONT', async () => {
    expect((await server.inject({ url: '/api/demo/A' })).statusCode).toBe(200);
    const thaw = await freezePostgres(postgres.port);
    try {
      const started = performance.now();
      // bounded here too, so SIGCONT always follows (the finally) even when the server would hang
      const response = await Promise.race([
        server.inject({ url: '/api/demo/A' }),
        new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('no answer within 10 s')), 10_000)),
      ]);
      const elapsed = performance.now() - started;
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toEqual({ success: false, error: 'The token store is not available. Retry shortly.' });
      // one query deadline (plus a little): never as long as the freeze
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 1500);
    } finally {
      thaw();
    }
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i += 1) {
      status = (await server.inject({ url: '/api/demo/A' })).statusCode;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  }, 30_000);

  it('reports TokenStore in /health/details with the check shape', async () => {
    const response = await server.inject({ url: '/health/details' });
    const body = response.json() as { checks: { name: string; status: string; description: string; duration: string; data: Record<string, unknown>; tags: string[] }[] };
    const check = body.checks.find((c) => c.name === 'TokenStore');
    expect(check).toMatchObject({
      name: 'TokenStore',
      status: 'Healthy',
      description: 'The token store is answering',
      data: { provider: 'postgres' },
      tags: ['database', 'auth'],
    });
    expect(check?.duration).toMatch(/^\d+\.\d{2}ms$/);
    expect(check?.data['responseTime']).toMatch(/^\d+\.\d{2}ms$/);
    // data/ is never created with the store on PostgreSQL: the disk check measures the folders written
    expect(body.checks.find((c) => c.name === 'Diskspace')?.status).toBe('Healthy');
    expect(response.statusCode).toBe(200);
  });

  it('keeps SQL errors of the store what they are (a duplicate name is no 503)', async () => {
    await expect(gatewayOf(server.app).access.tokens.create({ username: 'tester' })).rejects.toBeInstanceOf(UsernameTakenError);
  });
});
