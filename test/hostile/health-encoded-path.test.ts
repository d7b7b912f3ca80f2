/**
 * /health and /health/details need a bearer token (spec); the router percent-decodes a path before
 * matching, but the token check compared the path as written: `/health/%64etails` and `/%68ealth`
 * answered the health report (checks, environments, version) to anyone, and `/%61pi/...` reached the
 * data API's handler without admission (500 from its stage-order guard). Now the check judges the
 * path the router matches: 401 without a token, the report with one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
    serverSettings: { Environment: { ServerName: 'test', AllowedEnvironments: ['i', 'demo'] } },
    environments: { i: { Provider: 'embedded', ConnectionString: 'embedded://demo' }, demo: { Provider: 'embedded', ConnectionString: 'embedded://demo' } },
  });
});
afterAll(() => server.close());

const REQUIRED = { success: false, error: 'Authentication required' };

describe('an encoded letter in a protected path', () => {
  it.each(['/health/%64etails', '/health/detail%73', '/%68ealth', '/%68ealth?x=1', '/%61pi/Inventory/Products', '/a%70i/demo/Inventory/Products'])(
    '%s without a token: 401',
    async (url) => {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.json()).toEqual(REQUIRED);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    },
  );

  it('with a token /health/%64etails is the details report, /health/%6Cive stays open', async () => {
    const details = await server.inject({ method: 'GET', url: '/health/%64etails' });
    expect(Object.keys(details.json() as object)).toEqual(['status', 'timestamp', 'cache_expires_in', 'checks', 'totalDuration', 'version']);
    const live = await server.app.inject({ method: 'GET', url: '/health/%6Cive' });
    expect(live.statusCode).toBe(200);
    expect(live.body).toBe('Alive');
  });
});
