/**
 * Health publishes, the console subscribes (issue 24 item 4): the monitor's status change reaches
 * the console's event log (the SSE `health` event) through HealthMonitor.onChange, with health
 * knowing nothing of the console.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

describe('health status changes in the console', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
      handlers: ECHO_HANDLERS,
      environments: {},
      serverSettings: { Environment: { ServerName: 'h2c' }, WebUi: { SeedPassword: 'seed-password-1' } },
    });
  });
  afterAll(() => server.close());

  it('the first status of the monitor is a console health event', async () => {
    const health = await server.inject({ method: 'GET', url: '/health' });
    const { status } = health.json() as { status: string };
    const events = await gatewayOf(server.app).console.events.since(0);
    expect(events.filter((e) => e.name === 'health').map((e) => e.data)).toEqual([{ status }]);
  });
});
