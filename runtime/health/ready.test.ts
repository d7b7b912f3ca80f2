import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../testing/test-server.js';
import type { TestServer } from '../testing/test-server.js';

describe('/health/ready', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ generated: { endpoints: [] } });
  });
  afterAll(async () => server.close());

  it('answers Ready without auth, never cached, then 503 once the instance is stopping', async () => {
    const ready = await server.app.inject({ method: 'GET', url: '/health/ready' });
    expect([ready.statusCode, ready.headers['content-type'], ready.headers['cache-control'], ready.body]).toEqual([200, 'text/plain; charset=utf-8', 'no-store', 'Ready']);
    server.app.readiness.stopping();
    const stopping = await server.app.inject({ method: 'GET', url: '/health/ready' });
    expect([stopping.statusCode, stopping.headers['retry-after'], stopping.body]).toEqual([503, '1', 'Shutting down']);
    // liveness is unchanged: the instance is alive and still serving while it stops
    expect((await server.app.inject({ method: 'GET', url: '/health/live' })).body).toBe('Alive');
  });
});
