/**
 * PUT /ui/api/settings checked each value against its own range and the pool sizes against the
 * values in force only. A MaxPoolSize saved earlier (restart required, so not in force) and a
 * MinPoolSize above it saved next both passed: 200 twice, and the next start stopped with
 * "cannot exceed SqlConnectionPooling:MaxPoolSize". Now the saved overrides with the new values
 * must still start the server (the readers a start runs): else 400 naming the key, nothing saved.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../runtime/settings/load-settings.js';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] } });
});
afterAll(() => server.close());

const put = (payload: Record<string, unknown>) => server.inject({ method: 'PUT', url: '/ui/api/settings', payload });
const overrides = async () => JSON.parse(await readFile(path.join(server.project.environmentsDir, 'settings.overrides.json'), 'utf8')) as unknown;

describe('PUT /ui/api/settings and the next start', () => {
  it('a minimum above a maximum saved earlier (not in force yet) is 400, nothing saved, and the next start still starts', async () => {
    const first = await put({ 'SqlConnectionPooling:MaxPoolSize': 10 });
    expect(first.json()).toEqual({ ok: true, restart_required: true });
    const saved = await overrides();

    const second = await put({ 'SqlConnectionPooling:MinPoolSize': 50, 'RateLimiting:IpLimit': 500 });
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual({
      error: expect.stringMatching(
        /^Saving these settings would stop the next start: Setting 'SqlConnectionPooling:MinPoolSize' \(from .*settings\.json\) cannot exceed SqlConnectionPooling:MaxPoolSize$/,
      ),
      field: 'SqlConnectionPooling:MinPoolSize',
    });
    expect(await overrides()).toEqual(saved);
    await expect(loadSettings({ environmentsDir: server.project.environmentsDir, env: {} })).resolves.toBeDefined();
  });

  it('values that start together are saved', async () => {
    const response = await put({ 'SqlConnectionPooling:MinPoolSize': 8 });
    expect(response.json()).toEqual({ ok: true, restart_required: true });
    const next = await loadSettings({ environmentsDir: server.project.environmentsDir, env: {} });
    expect([next.server.sqlPooling.minPoolSize, next.server.sqlPooling.maxPoolSize]).toEqual([8, 10]);
  });
});
