import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../testing/test-server.js';
import type { TestServer } from '../testing/test-server.js';

describe('/health/live', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ generated: { endpoints: [] } });
  });
  afterAll(async () => server.close());

  it('answers Alive as plain text, cacheable for 5 seconds, without auth', async () => {
    const before = Date.now();
    const response = await server.app.inject({ method: 'GET', url: '/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=5');
    const expires = Date.parse(String(response.headers['expires']));
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 4000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 5000);
    expect(response.body).toBe('Alive');
  });

  it('HEAD works too', async () => {
    const response = await server.app.inject({ method: 'HEAD', url: '/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });
});
