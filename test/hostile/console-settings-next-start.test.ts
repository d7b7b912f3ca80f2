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

describe('anti-lockout across two saves (proxy lists, both applied at the next start)', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await createTestServer({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
      serverSettings: {
        Environment: { ServerName: 'test' },
        WebUi: { PublicOrigins: ['https://console.example.com'] },
        ForwardedHeaders: { KnownProxies: ['127.0.0.1'], KnownNetworks: ['127.0.0.0/8'] },
      },
    });
  });
  afterAll(() => proxied.close());

  it('proxies saved first, then networks: the second save is checked against the saved proxy list, 400', async () => {
    const viaProxy = { 'x-forwarded-for': '198.51.100.7', host: 'console.example.com', origin: 'https://console.example.com' };
    const send = (payload: Record<string, unknown>) => proxied.inject({ method: 'PUT', url: '/ui/api/settings', payload, headers: viaProxy });
    // the networks in force still trust this proxy: saved
    expect((await send({ 'ForwardedHeaders:KnownProxies': ['10.0.0.1'] })).statusCode).toBe(200);
    // with the saved proxies, the next start would trust it through neither list
    const second = await send({ 'ForwardedHeaders:KnownNetworks': ['10.0.0.0/8'] });
    expect(second.json()).toEqual({
      error: "Saving 'ForwardedHeaders:KnownNetworks' would lock you out of the console: your request arrives through the proxy 127.0.0.1, which would no longer be trusted",
      field: 'ForwardedHeaders:KnownNetworks',
    });
    expect(second.statusCode).toBe(400);
  });
});
