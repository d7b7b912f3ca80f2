/**
 * PATCH /ui/api/environments with two names equal but for case (`new1` and `NEW1`): both folders
 * were written, then reading them back failed ("environment name clashes"): a 500, the running
 * server unchanged, and the next start refused. Now it is 400 naming the second name, nothing written.
 */
import { existsSync } from 'node:fs';
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

describe('PATCH /ui/api/environments with names equal but for case', () => {
  it('is 400 naming the second, writes nothing, and the next start still starts', async () => {
    const response = await server.inject({
      method: 'PATCH',
      url: '/ui/api/environments',
      payload: { environments: { new1: { provider: 'embedded' }, NEW1: { provider: 'embedded' } } },
    });
    expect(response.json()).toEqual({ error: "Environment names 'new1' and 'NEW1' are the same (names are case-insensitive)", field: 'environments.NEW1' });
    expect(response.statusCode).toBe(400);
    expect(existsSync(path.join(server.project.environmentsDir, 'new1'))).toBe(false);
    expect(existsSync(path.join(server.project.environmentsDir, 'NEW1'))).toBe(false);
    await expect(loadSettings({ environmentsDir: server.project.environmentsDir, env: {} })).resolves.toBeDefined();
  });

  it('one of them alone is created', async () => {
    const response = await server.inject({ method: 'PATCH', url: '/ui/api/environments', payload: { environments: { NEW1: { provider: 'embedded' } } } });
    expect(response.statusCode).toBe(200);
    expect((response.json() as { environments: Record<string, unknown> }).environments['NEW1']).toEqual({ provider: 'embedded', connection_string: '<CONNECTION_STRING>' });
  });
});
