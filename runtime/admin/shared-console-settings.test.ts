/**
 * The settings store (runtime/settings/settings-store.ts) through PUT /ui/api/settings (the shared
 * store's changes on the other instances go through the same store): a live setting a `__` environment variable sets is saved but not
 * applied (the variable wins, as at every start); one no variable sets is applied at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../testing/test-server.js';

describe('live console settings and `__` variables', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ generated: { endpoints: [] }, env: { Logging__MinLevel: 'error' } });
  });
  afterAll(() => server.close());

  it('a variable wins over a saved live setting; the others apply at once', async () => {
    const before = server.app.log.level; // the test server's logger sets its own level
    const saved = await server.inject({ method: 'PUT', url: '/ui/api/settings', payload: { 'Logging:MinLevel': 'debug', 'WebUi:SecureCookies': true } });
    expect(saved.json()).toEqual({ ok: true, restart_required: false });
    expect(server.app.log.level).toBe(before);
    const dump = (await server.inject({ method: 'GET', url: '/ui/api/settings' })).json() as { effective: Record<string, unknown> };
    expect(dump.effective['Logging:MinLevel']).toEqual({ value: before, source: 'environment' });
    expect(dump.effective['WebUi:SecureCookies']).toEqual({ value: true, source: 'console' });
  });
});
