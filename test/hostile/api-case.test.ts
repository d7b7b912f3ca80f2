/**
 * `/API/...` in any case reaches the data API (spec: URLs are case-insensitive), and every
 * access check applies to it exactly as to `/api/...`: no spelling of the prefix skips the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Items' }] }, handlers: ECHO_HANDLERS });
});
afterAll(async () => server?.close());

describe('the /api prefix in any case', () => {
  it.each(['/API/demo/Inventory/Items', '/Api/DEMO/inventory/items', '/aPI/demo/Inventory/Items?$top=1'])('%s answers like /api', async (url) => {
    const res = await server.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
  });

  it.each(['/API/demo/Inventory/Items', '/Api/demo/Inventory/Items'])('%s without a token is 401', async (url) => {
    const res = await server.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, error: 'Authentication required' });
  });

  it('a strict Bearer header: two spaces are not a credential', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/demo/Inventory/Items', headers: { authorization: `Bearer  ${server.token}` } });
    expect(res.statusCode).toBe(401);
  });

  it('other paths keep their case: /HEALTH/live is not /health/live', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: '/HEALTH/live' })).statusCode).toBe(404);
  });
});
