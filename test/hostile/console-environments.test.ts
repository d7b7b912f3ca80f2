/**
 * PATCH /ui/api/environments with two names equal but for case (`new1` and `NEW1`): both folders
 * were written, then reading them back failed ("environment name clashes"): a 500, the running
 * server unchanged, and the next start refused. Now it is 400 naming the second name, nothing written.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * PATCH /ui/api/environments with another environment folder broken on disk (not JSON, or a
 * Provider no start accepts). Old behaviour: the patched files (and settings.overrides.json) were
 * written first and the folders read back after: a 500, half of the change stored, the running
 * server not reloaded. Now every environment is read as it will be before anything is written:
 * 409 naming the broken file, nothing written; with the folder repaired the same PATCH is applied.
 */
describe('PATCH /ui/api/environments with a broken sibling folder', () => {
  const overrides = () => path.join(server.project.environmentsDir, 'settings.overrides.json');
  const snapshot = () => (existsSync(overrides()) ? readFileSync(overrides(), 'utf8') : null);
  const patch = { allowed_environments: ['demo', 'fresh1'], environments: { fresh1: { provider: 'embedded' } } };

  it.each([
    ['{ "Provider": "embedded", ', 'environments/broken1/settings.json is not valid JSON: '],
    ['{ "Provider": "oracle" }', 'environments/broken1/settings.json: Provider must be one of mssql, postgres, embedded'],
  ])('%s: 409 naming the file, nothing written, the server unchanged', async (text, message) => {
    mkdirSync(path.join(server.project.environmentsDir, 'broken1'), { recursive: true });
    writeFileSync(path.join(server.project.environmentsDir, 'broken1', 'settings.json'), text);
    const before = snapshot();
    const listed = (await server.inject({ method: 'GET', url: '/ui/api/environments' })).json() as unknown;
    const response = await server.inject({ method: 'PATCH', url: '/ui/api/environments', payload: patch });
    expect(response.json()).toEqual({ error: 'Conflict', message: expect.stringContaining(message) });
    expect((response.json() as { message: string }).message).toMatch(/\(fix it on disk first; nothing was changed\)$/);
    expect(response.statusCode).toBe(409);
    expect(existsSync(path.join(server.project.environmentsDir, 'fresh1'))).toBe(false);
    expect(snapshot()).toEqual(before);
    expect((await server.inject({ method: 'GET', url: '/ui/api/environments' })).json()).toEqual(listed);
  });

  it('the patched folder itself not JSON: 409, nothing written', async () => {
    rmSync(path.join(server.project.environmentsDir, 'broken1'), { recursive: true, force: true });
    mkdirSync(path.join(server.project.environmentsDir, 'broken2'));
    writeFileSync(path.join(server.project.environmentsDir, 'broken2', 'settings.json'), '{');
    const response = await server.inject({ method: 'PATCH', url: '/ui/api/environments', payload: { environments: { fresh1: {}, broken2: { provider: 'embedded' } } } });
    expect(response.json()).toEqual({ error: 'Conflict', message: 'environments/broken2/settings.json is not valid JSON (fix it on disk first; nothing was changed)' });
    expect(existsSync(path.join(server.project.environmentsDir, 'fresh1'))).toBe(false);
    rmSync(path.join(server.project.environmentsDir, 'broken2'), { recursive: true, force: true });
  });

  it('repaired, the same PATCH is applied whole', async () => {
    const response = await server.inject({ method: 'PATCH', url: '/ui/api/environments', payload: patch });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ allowed_environments: ['demo', 'fresh1'], environments: { fresh1: { provider: 'embedded', connection_string: '<CONNECTION_STRING>' } } });
    expect(existsSync(path.join(server.project.environmentsDir, 'fresh1', 'settings.json'))).toBe(true);
  });
});
