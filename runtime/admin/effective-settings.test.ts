/**
 * GET /ui/api/settings `effective` pinned whole, byte for byte (keys in the registry's order), through
 * the real buildServer: settings from settings.json, from `__` and legacy variables, from the
 * console's settings.overrides.json at start; then saved from the console: restart keys (pending),
 * live keys (applied at once), a key a variable sets (the variable wins), and Environment:ServerName
 * saved by PUT /ui/api/settings (pending) and then by PATCH /ui/api/environments (applied at once).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayOf } from '../gateway-handle.js';
import { buildServer } from '../server.js';
import { overridesPath } from '../settings/overrides-file.js';
import { createTempProject, type TempProject } from '../testing/generated-fixture.js';
import { LogCapture } from '../testing/test-server.js';

type Effective = Record<string, { value: unknown; source: string; pending?: unknown }>;

const AT_START: Effective = {
  'Environment:ServerName': { value: 'pin-file', source: 'file' },
  'RateLimiting:Enabled': { value: true, source: 'default' },
  'RateLimiting:IpLimit': { value: 1000, source: 'file' },
  'RateLimiting:IpWindow': { value: 30, source: 'file' },
  'RateLimiting:TokenLimit': { value: 250, source: 'environment' },
  'RateLimiting:TokenWindow': { value: 60, source: 'default' },
  'ForwardedHeaders:KnownProxies': { value: ['10.1.1.1', '10.1.1.2'], source: 'environment' },
  'ForwardedHeaders:KnownNetworks': { value: ['10.0.0.0/8'], source: 'file' },
  'Caching:Enabled': { value: false, source: 'file' },
  'Caching:DefaultDurationSeconds': { value: 120, source: 'console' },
  'SqlConnectionPooling:Enabled': { value: true, source: 'default' },
  'SqlConnectionPooling:MinPoolSize': { value: 5, source: 'default' },
  'SqlConnectionPooling:MaxPoolSize': { value: 40, source: 'file' },
  'Logging:MinLevel': { value: 'info', source: 'default' },
  'HealthChecks:Enabled': { value: false, source: 'console' },
  'HealthChecks:CacheTimeSeconds': { value: 7, source: 'environment' },
  'WebUi:SecureCookies': { value: false, source: 'default' },
  'WebUi:PublicOrigins': { value: [], source: 'default' },
};

const AFTER_PUT: Effective = {
  ...AT_START,
  'Environment:ServerName': { value: 'pin-file', source: 'console', pending: 'pin-put' },
  'RateLimiting:IpLimit': { value: 1000, source: 'console', pending: 50 },
  'SqlConnectionPooling:MinPoolSize': { value: 5, source: 'console', pending: 2 },
  'Logging:MinLevel': { value: 'warn', source: 'console' },
  'WebUi:SecureCookies': { value: true, source: 'console' },
  'WebUi:PublicOrigins': { value: ['https://console.example.com'], source: 'console' },
};

const AFTER_PATCH: Effective = { ...AFTER_PUT, 'Environment:ServerName': { value: 'pin-live', source: 'console' } };

describe('GET /ui/api/settings effective', () => {
  let project: TempProject;
  let app: FastifyInstance;
  let headers: Record<string, string>;

  beforeAll(async () => {
    project = await createTempProject({
      generated: { endpoints: [] },
      serverSettings: {
        Environment: { ServerName: 'pin-file', AllowedEnvironments: ['demo'] },
        RateLimiting: { IpLimit: 1000, IpWindow: 30 },
        Caching: { Enabled: false },
        SqlConnectionPooling: { MaxPoolSize: 40 },
        ForwardedHeaders: { KnownNetworks: ['10.0.0.0/8'] },
      },
      environments: { demo: { Provider: 'embedded', ConnectionString: 'embedded://demo' } },
    });
    // saved from the console before this start; the variable still wins for TokenLimit
    await writeFile(
      overridesPath(project.environmentsDir),
      JSON.stringify({ Caching: { DefaultDurationSeconds: 120 }, HealthChecks: { Enabled: false }, RateLimiting: { TokenLimit: 9 } }),
    );
    app = await buildServer({
      generatedDir: project.generatedDir,
      environmentsDir: project.environmentsDir,
      dataDir: path.join(project.root, 'data'),
      env: {
        RateLimiting__TokenLimit: '250',
        HEALTHCHECK_CACHE_TIME: '7',
        ForwardedHeaders__KnownProxies: '10.1.1.1, 10.1.1.2',
        HEALTHCHECK_DISK_WARNING: '0',
        HEALTHCHECK_DISK_CRITICAL: '0',
      },
      logger: { level: 'info', stream: new LogCapture() },
    });
    headers = { authorization: `Bearer ${(await gatewayOf(app).access.tokens.create({ username: 'pin' })).token}` };
  });
  afterAll(async () => {
    await app?.close();
    await project?.cleanup();
  });

  const effectiveText = async (): Promise<string> => {
    const response = await app.inject({ method: 'GET', url: '/ui/api/settings', headers });
    expect(response.statusCode).toBe(200);
    return JSON.stringify((response.json() as { effective: Effective }).effective);
  };

  it('pins every writable key at start, after console saves (pending and live) and after a live environments change', async () => {
    const start = await effectiveText();
    expect(JSON.parse(start)).toEqual(AT_START);
    expect(start).toBe(JSON.stringify(AT_START));

    const put = await app.inject({
      method: 'PUT',
      url: '/ui/api/settings',
      // an IpLimit the console can live with (below 30 is refused: test/hostile/console-settings-lockout.test.ts)
      headers,
      payload: {
        'Environment:ServerName': 'pin-put',
        'RateLimiting:IpLimit': 50,
        'RateLimiting:TokenLimit': 1,
        'Caching:DefaultDurationSeconds': 120,
        'SqlConnectionPooling:MinPoolSize': 2,
        'Logging:MinLevel': 'warn',
        'WebUi:SecureCookies': true,
        'WebUi:PublicOrigins': ['https://console.example.com'],
      },
    });
    expect(put.json()).toEqual({ ok: true, restart_required: true });
    const afterPut = await effectiveText();
    expect(JSON.parse(afterPut)).toEqual(AFTER_PUT);
    expect(afterPut).toBe(JSON.stringify(AFTER_PUT));

    const patch = await app.inject({ method: 'PATCH', url: '/ui/api/environments', headers, payload: { server_name: 'pin-live' } });
    expect(patch.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/ui/api/overview', headers })).json()).toMatchObject({ server_name: 'pin-live' });
    const afterPatch = await effectiveText();
    expect(JSON.parse(afterPatch)).toEqual(AFTER_PATCH);
    expect(afterPatch).toBe(JSON.stringify(AFTER_PATCH));
  });
});
