/**
 * Console data routes through the real buildServer (inject): overview, endpoint listing, tokens
 * (every status), settings dump and writes (kinds, all-or-none, overrides file, anti-lockout),
 * environments (masking, merge, new environment, atomic write with backup, live reload).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, TEST_TOKEN_USERNAME } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const ENDPOINTS = [
  { kind: 'sql', routePath: 'Inventory/Products', methods: ['GET', 'POST'] },
  { kind: 'proxy', routePath: 'Remote/Weather' },
  { kind: 'composite', routePath: 'Orders/Checkout' },
  { kind: 'static', routePath: 'Reference/Countries' },
  { kind: 'files', routePath: 'Docs' },
  { kind: 'webhook', routePath: 'Hooks/Incoming' },
] as const;

describe('console data routes', () => {
  let server: TestServer;
  const send = (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    server.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  beforeAll(async () => {
    server = await createTestServer({
      generated: { endpoints: ENDPOINTS },
      handlers: ECHO_HANDLERS,
      serverSettings: {
        Environment: { ServerName: 'test-server', AllowedEnvironments: ['demo', 'prod'] },
        WebUi: { SeedPassword: 'seed-password-1', PublicOrigins: ['https://console.example.com'] },
        ForwardedHeaders: { KnownProxies: ['127.0.0.1'] },
        RateLimiting: { IpLimit: 10_000, TokenLimit: 10_000 },
      },
    });
  });
  afterAll(() => server.close());

  it('GET /ui/api/overview', async () => {
    const response = await send('GET', '/ui/api/overview');
    expect(response.statusCode).toBe(200);
    const body = response.json() as Record<string, unknown>;
    expect(body['version']).toBe(`0.1.0+${gatewayOf(server.app).routes.current.sourceHash.slice(0, 12)}`);
    expect(body).toEqual({
      version: body['version'],
      uptime_seconds: expect.any(Number),
      endpoints: { sql: 1, proxy: 2, static: 1, files: 1, webhooks: 1 },
      environments: ['demo', 'prod'],
      server_name: 'test-server',
    });
  });

  it('GET /ui/api/endpoints', async () => {
    const response = await send('GET', '/ui/api/endpoints');
    expect(response.statusCode).toBe(200);
    const common = (kind: string, routePath: string, methods: string[]) => {
      const segments = routePath.split('/');
      return {
        name: segments.at(-1),
        namespace: segments.length > 1 ? segments.slice(0, -1).join('/') : null,
        path: `endpoints/${kind}/${routePath}/entity.json`,
        methods,
        enabled: true,
        hidden: false,
      };
    };
    expect(response.json()).toEqual({
      sql: [
        {
          ...common('sql', 'Inventory/Products', ['GET', 'POST']),
          schema: 'dbo',
          object_name: 'Products',
          object_type: 'Table',
          primary_key: 'Id',
          allowed_columns: ['Id'],
        },
      ],
      proxy: [
        { ...common('composite', 'Orders/Checkout', ['POST']), type: 'composite', url: 'http://127.0.0.1:9' },
        { ...common('proxy', 'Remote/Weather', ['GET', 'POST']), type: 'proxy', url: 'http://127.0.0.1:9/upstream' },
      ],
      static: [{ ...common('static', 'Reference/Countries', ['GET', 'QUERY']), content_type: 'application/json' }],
      files: [{ ...common('files', 'Docs', ['GET', 'POST', 'DELETE']), allowed_extensions: [] }],
      webhooks: [{ ...common('webhook', 'Hooks/Incoming', ['POST']), schema: 'dbo', object_name: 'Webhooks', webhook_ids: [] }],
    });
  });

  describe('tokens', () => {
    let id: number;
    let value: string;

    it('POST creates (201), emits token_created; a duplicate username is 409; bad input 400', async () => {
      const seen: unknown[] = [];
      const stop = gatewayOf(server.app).console.events.subscribe((event) => seen.push([event.name, event.data]));
      const created = await send('POST', '/ui/api/tokens', {
        username: 'reporting', description: 'BI', allowed_scopes: 'read', allowed_environments: ['demo'], expires_in_days: 30,
      }, { 'user-agent': 'curl/8' });
      stop();
      expect(created.statusCode).toBe(201);
      const body = created.json() as { ok: boolean; token: { token: string; username: string; expires_at: string } };
      expect(body).toEqual({ ok: true, token: { token: expect.any(String), username: 'reporting', expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) } });
      value = body.token.token;
      const listed = (await send('GET', '/ui/api/tokens')).json() as { id: number; username: string }[];
      id = listed.find((row) => row.username === 'reporting')!.id;
      expect(seen).toEqual([['token_created', { id, username: 'reporting' }]]);
      const again = await send('POST', '/ui/api/tokens', { username: 'Reporting' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: 'Conflict', message: "A token with username 'Reporting' already exists" });
      const bad = await send('POST', '/ui/api/tokens', { username: 'x', expires_in_days: 0 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: 'expires_in_days must be a whole number from 1 to 36500', field: 'expires_in_days' });
      const missing = await send('POST', '/ui/api/tokens', {});
      expect(missing.json()).toEqual({ error: 'username is required', field: 'username' });
    });

    it('an unknown environment in allowed_environments is a 400 naming the field; nothing is created or changed', async () => {
      const before = (await send('GET', '/ui/api/tokens?include_revoked=true')).json();
      const created = await send('POST', '/ui/api/tokens', { username: 'typo', allowed_environments: 'prdo' });
      expect(created.statusCode).toBe(400);
      expect(created.json()).toEqual({ error: "allowed_environments names unknown environment 'prdo' (known: demo, prod)", field: 'allowed_environments' });
      const several = await send('POST', '/ui/api/tokens', { username: 'typo', allowed_environments: ['demo', 'staging', 'qa*'] });
      expect(several.json()).toEqual({ error: "allowed_environments names unknown environments 'staging', 'qa*' (known: demo, prod)", field: 'allowed_environments' });
      const edited = await send('PUT', `/ui/api/tokens/${id}`, { allowed_environments: 'demo,staging' });
      expect(edited.statusCode).toBe(400);
      expect((await send('GET', '/ui/api/tokens?include_revoked=true')).json()).toEqual(before);
      const pattern = await send('POST', '/ui/api/tokens', { username: 'pattern-ok', allowed_scopes: 'read', allowed_environments: 'pr*' });
      expect(pattern.statusCode).toBe(201);
    });

    it('GET lists active tokens in the spec shape', async () => {
      const rows = (await send('GET', '/ui/api/tokens')).json() as Record<string, unknown>[];
      expect(rows.find((row) => row['id'] === id)).toEqual({
        id,
        username: 'reporting',
        description: 'BI',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        revoked_at: null,
        allowed_scopes: 'read',
        allowed_environments: 'demo',
        is_active: true,
      });
    });

    it('PUT edits (404 unknown id; 409 narrowing the last full-access token)', async () => {
      const ok = await send('PUT', `/ui/api/tokens/${id}`, { description: 'BI team', allowed_scopes: 'read,write', expires_at: null });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ ok: true });
      const row = ((await send('GET', '/ui/api/tokens')).json() as Record<string, unknown>[]).find((r) => r['id'] === id)!;
      expect([row['description'], row['allowed_scopes'], row['expires_at']]).toEqual(['BI team', 'read,write', null]);
      const unknown = await send('PUT', '/ui/api/tokens/9999', { description: 'x' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'Not found', message: 'Token 9999 not found' });
      const tester = ((await send('GET', '/ui/api/tokens')).json() as { id: number; username: string }[]).find((r) => r.username === TEST_TOKEN_USERNAME)!;
      const narrow = await send('PUT', `/ui/api/tokens/${tester.id}`, { allowed_scopes: 'read' });
      expect(narrow.statusCode).toBe(409);
      expect(narrow.json()).toEqual({ error: 'Conflict', message: 'Cannot narrow the last full-access token' });
      const toOneEnvironment = await send('PUT', `/ui/api/tokens/${tester.id}`, { allowed_environments: 'demo' });
      expect(toOneEnvironment.statusCode).toBe(409);
      expect(toOneEnvironment.json()).toEqual({ error: 'Conflict', message: 'Cannot narrow the last full-access token' });
      const badDate = await send('PUT', `/ui/api/tokens/${id}`, { expires_at: 'soon' });
      expect(badDate.json()).toEqual({ error: 'expires_at must be an ISO 8601 date-time or null', field: 'expires_at' });
    });

    it('a body that is not a JSON object (null, an array, a number, none) is a 400 on every token write', async () => {
      const raw = (method: 'POST' | 'PUT', url: string, payload?: string) =>
        server.inject({ method, url, ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }) });
      for (const [method, url] of [['PUT', `/ui/api/tokens/${id}`], ['POST', '/ui/api/tokens']] as const) {
        for (const payload of ['null', '[]', '[{"description":"x"}]', '12', '"text"', undefined]) {
          const response = await raw(method, url, payload);
          expect([method, payload, response.statusCode]).toEqual([method, payload, 400]);
          expect(response.json()).toEqual({ error: 'The body must be a JSON object' });
        }
      }
      const audit = (await send('GET', `/ui/api/tokens/${id}/audit`)).json() as { operation: string }[];
      expect(audit.map((entry) => entry.operation)).toEqual(['Updated', 'Created']);
    });

    it('rotate (old token revoked, a new one with a new id), revoke (token refused at once), unarchive, audit', async () => {
      const seen: unknown[] = [];
      const stop = gatewayOf(server.app).console.events.subscribe((event) => seen.push([event.name, event.data]));
      const rotated = await send('POST', `/ui/api/tokens/${id}/rotate`);
      stop();
      expect(rotated.statusCode).toBe(200);
      const rotatedBody = rotated.json() as { ok: boolean; token: { id: number; token: string; username: string } };
      const next = rotatedBody.token.id;
      expect(rotatedBody).toEqual({ ok: true, token: { id: next, token: expect.any(String), username: 'reporting' } });
      expect(next).not.toBe(id);
      expect(seen).toEqual([['token_revoked', { id, username: 'reporting' }], ['token_created', { id: next, username: 'reporting' }]]);
      const apiWithOld = await server.app.inject({ method: 'GET', url: '/api/demo/Inventory/Products', headers: { authorization: `Bearer ${value}` } });
      expect(apiWithOld.statusCode).toBe(401);
      value = rotatedBody.token.token;
      const apiBefore = await server.app.inject({ method: 'GET', url: '/api/demo/Inventory/Products', headers: { authorization: `Bearer ${value}` } });
      expect(apiBefore.statusCode).toBe(200);
      const all = (await send('GET', '/ui/api/tokens?include_revoked=true')).json() as Record<string, unknown>[];
      const before = all.find((row) => row['id'] === id)!;
      expect(before).toEqual(expect.objectContaining({ username: 'reporting', is_active: false, revoked_at: expect.stringMatching(/^\d{4}-/) }));
      expect(all.find((row) => row['id'] === next)).toEqual({ ...before, id: next, created_at: expect.any(String), revoked_at: null, is_active: true });
      expect((await send('GET', '/ui/api/tokens')).json()).not.toContainEqual(expect.objectContaining({ id }));
      const rotateAgain = await send('POST', `/ui/api/tokens/${id}/rotate`);
      expect(rotateAgain.statusCode).toBe(400);
      expect(rotateAgain.json()).toEqual({ error: 'Cannot rotate an archived token' });
      const bringBack = await send('POST', `/ui/api/tokens/${id}/unarchive`);
      expect(bringBack.statusCode).toBe(409);
      expect(bringBack.json()).toEqual({ error: 'Conflict', message: "A token with username 'reporting' is active (revoke it first)" });

      const revoked = await send('DELETE', `/ui/api/tokens/${next}`);
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json()).toEqual({ ok: true });
      const apiAfter = await server.app.inject({ method: 'GET', url: '/api/demo/Inventory/Products', headers: { authorization: `Bearer ${value}` } });
      expect(apiAfter.statusCode).toBe(401);
      expect((await send('DELETE', `/ui/api/tokens/${next}`)).json()).toEqual({ error: 'Not found', message: `Token ${next} not found or already revoked` });
      expect((await send('GET', '/ui/api/tokens')).json()).not.toContainEqual(expect.objectContaining({ id: next }));
      expect((await send('GET', '/ui/api/tokens?include_revoked=true')).json()).toContainEqual(expect.objectContaining({ id: next, is_active: false }));
      const rotateRevoked = await send('POST', `/ui/api/tokens/${next}/rotate`);
      expect(rotateRevoked.statusCode).toBe(400);
      expect(rotateRevoked.json()).toEqual({ error: 'Cannot rotate an archived token' });

      const unarchived = await send('POST', `/ui/api/tokens/${next}/unarchive`);
      expect(unarchived.statusCode).toBe(200);
      expect(unarchived.json()).toEqual({ ok: true, is_active: true });
      expect((await server.app.inject({ method: 'GET', url: '/api/demo/Inventory/Products', headers: { authorization: `Bearer ${value}` } })).statusCode).toBe(200);
      const again = await send('POST', `/ui/api/tokens/${next}/unarchive`);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ error: 'Not found', message: 'Token not found or not archived' });

      const audit = await send('GET', `/ui/api/tokens/${id}/audit`);
      expect(audit.statusCode).toBe(200);
      const entries = audit.json() as Record<string, unknown>[];
      expect(entries.map((entry) => [entry['operation'], entry['details']])).toEqual([
        ['Revoked', `Token rotated; replaced by token ${next}`],
        ['Updated', 'Token updated: description, allowedScopes, expiresAt'],
        ['Created', 'Token created for reporting'],
      ]);
      expect(entries.at(-1)).toEqual({
        operation: 'Created',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        details: 'Token created for reporting',
        ip_address: '127.0.0.1',
        user_agent: 'curl/8',
      });
      const successor = (await send('GET', `/ui/api/tokens/${next}/audit`)).json() as Record<string, unknown>[];
      expect(successor.map((entry) => [entry['operation'], entry['details']])).toEqual([
        ['Unarchived', 'Token restored'],
        ['Revoked', 'Token revoked'],
        ['Created', `Token created by rotating token ${id}`],
      ]);
      expect((await send('GET', '/ui/api/tokens/9999/audit')).statusCode).toBe(404);
      expect((await send('POST', '/ui/api/tokens/abc/rotate')).statusCode).toBe(404);
    });
  });

  describe('settings', () => {
    it('GET /ui/api/settings dumps the settings in force and the writable keys', async () => {
      const response = await send('GET', '/ui/api/settings', undefined, { 'x-forwarded-for': '198.51.100.7', origin: 'https://console.example.com' });
      expect(response.statusCode).toBe(200);
      const body = response.json() as Record<string, unknown>;
      expect(body['rate_limiting']).toEqual({ enabled: true, ip_limit: 10000, ip_window_seconds: 60, token_limit: 10000, token_window_seconds: 60 });
      expect(body['caching']).toEqual({ enabled: true, provider: 'Memory', default_duration_seconds: 300 });
      expect(body['sql_pooling']).toEqual({ enabled: true, min_pool_size: 5, max_pool_size: 100 });
      expect(body['logging']).toEqual({ min_level: 'info', sinks: ['console'] });
      expect(body['security']).toEqual({
        webui_auth_enabled: true, admin_accounts: 1, https_enabled: false, secure_cookies: false, client_ip: '198.51.100.7',
        behind_proxy: true, forwarded_ignored: false, console_public: true, trusted_proxies_configured: true, csrf_protection: true,
      });
      expect(body['features']).toEqual({ oidc: false, openapi: true, traffic_logging: false, landing_page: true, oidc_providers: 0 });
      expect(body['deployment']).toEqual({ public_origins: ['https://console.example.com'], known_proxies: ['127.0.0.1'], known_networks: [] });
      expect(body['writable']).toContainEqual({ key: 'RateLimiting:IpLimit', kind: 'int', requires_restart: true, min: 1, max: 1_000_000 });
      expect(body['writable']).toContainEqual({ key: 'Logging:MinLevel', kind: 'choice', requires_restart: false, choices: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] });
      expect(body['writable']).toContainEqual({ key: 'WebUi:PublicOrigins', kind: 'originlist', requires_restart: false });
    });

    it.each([
      [{ 'Nope:Key': 1 }, { error: "'Nope:Key' is not a writable setting", field: 'Nope:Key' }],
      [{ 'RateLimiting:Enabled': 'yes' }, { error: "'RateLimiting:Enabled' expects true or false", field: 'RateLimiting:Enabled' }],
      [{ 'RateLimiting:IpLimit': 0 }, { error: "'RateLimiting:IpLimit' must be 1 or more", field: 'RateLimiting:IpLimit' }],
      [{ 'RateLimiting:IpWindow': 100000 }, { error: "'RateLimiting:IpWindow' must be 86400 or less", field: 'RateLimiting:IpWindow' }],
      [{ 'Logging:MinLevel': 'loud' }, { error: "'Logging:MinLevel' must be one of trace, debug, info, warn, error, fatal, silent", field: 'Logging:MinLevel' }],
      [{ 'ForwardedHeaders:KnownNetworks': ['0.0.0.0/0'] }, { error: "'ForwardedHeaders:KnownNetworks': '0.0.0.0/0' has an invalid prefix length (/0 is refused)", field: 'ForwardedHeaders:KnownNetworks' }],
      [{ 'ForwardedHeaders:KnownNetworks': ['0.0.0.0/1', '128.0.0.0/1'] }, { error: `'ForwardedHeaders:KnownNetworks': ["0.0.0.0/1","128.0.0.0/1"] together trust every IPv4 address (any client could then set its own address through X-Forwarded-For); list only your proxies' networks`, field: 'ForwardedHeaders:KnownNetworks' }],
      [{ 'ForwardedHeaders:KnownNetworks': ['::ffff:0:0/96'] }, { error: `'ForwardedHeaders:KnownNetworks': ["::ffff:0:0/96"] together trust every IPv4 address (any client could then set its own address through X-Forwarded-For); list only your proxies' networks`, field: 'ForwardedHeaders:KnownNetworks' }],
      [{ 'ForwardedHeaders:KnownNetworks': ['8000::/1', '::/1'] }, { error: `'ForwardedHeaders:KnownNetworks': ["8000::/1","::/1"] together trust every IPv4 and IPv6 address (any client could then set its own address through X-Forwarded-For); list only your proxies' networks`, field: 'ForwardedHeaders:KnownNetworks' }],
      [{ 'ForwardedHeaders:KnownProxies': ['proxy.local'] }, { error: "'ForwardedHeaders:KnownProxies': 'proxy.local' is not an IP address", field: 'ForwardedHeaders:KnownProxies' }],
      [{ 'WebUi:PublicOrigins': ['https://x.example.com/path'] }, { error: "'WebUi:PublicOrigins': 'https://x.example.com/path' must be scheme and host only, such as https://console.example.com", field: 'WebUi:PublicOrigins' }],
      [{ 'SqlConnectionPooling:MinPoolSize': 200 }, { error: 'The minimum pool size cannot exceed the maximum', field: 'SqlConnectionPooling:MinPoolSize' }],
      [{ 'RateLimiting:IpLimit': 5, 'Other:Key': true }, { error: "'Other:Key' is not a writable setting", field: 'Other:Key' }],
    ])('PUT refuses %j with 400 and writes nothing', async (payload, want) => {
      const response = await send('PUT', '/ui/api/settings', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(want);
      expect(existsSync(path.join(server.project.environmentsDir, 'settings.overrides.json'))).toBe(false);
    });

    it('PUT refuses a change that would lock the caller out (anti-lockout), naming the field', async () => {
      const viaProxy = { 'x-forwarded-for': '198.51.100.7', host: 'console.example.com' };
      const origins = await send('PUT', '/ui/api/settings', { 'WebUi:PublicOrigins': ['https://other.example.com'] }, { ...viaProxy, origin: 'https://console.example.com' });
      expect(origins.statusCode).toBe(400);
      expect(origins.json()).toEqual({
        error: "Saving 'WebUi:PublicOrigins' would lock you out of the console: this request comes from https://console.example.com, which is not in the new list",
        field: 'WebUi:PublicOrigins',
      });
      const proxies = await send('PUT', '/ui/api/settings', { 'ForwardedHeaders:KnownProxies': ['10.0.0.1'] }, { ...viaProxy, origin: 'https://console.example.com' });
      expect(proxies.statusCode).toBe(400);
      expect(proxies.json()).toEqual({
        error: "Saving 'ForwardedHeaders:KnownProxies' would lock you out of the console: your request arrives through the proxy 127.0.0.1, which would no longer be trusted",
        field: 'ForwardedHeaders:KnownProxies',
      });
      const outsider = await send('GET', '/ui/api/settings', undefined, { 'x-forwarded-for': '198.51.100.7', origin: 'https://evil.example.com' });
      expect(outsider.statusCode).toBe(403);
      expect(outsider.json()).toEqual({ error: 'Access denied', clientIp: '198.51.100.7', requestedPath: '/ui/api/settings' });
    });

    it('PUT writes settings.overrides.json atomically, applies Logging:MinLevel at once, reports restart_required', async () => {
      const response = await send('PUT', '/ui/api/settings', { 'RateLimiting:IpLimit': 500, 'Logging:MinLevel': 'warn' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ok: true, restart_required: true });
      const file = path.join(server.project.environmentsDir, 'settings.overrides.json');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ RateLimiting: { IpLimit: 500 }, Logging: { MinLevel: 'warn' } });
      expect(server.app.log.level).toBe('warn');
      const live = await send('PUT', '/ui/api/settings', { 'Logging:MinLevel': 'info', 'WebUi:SecureCookies': true });
      expect(live.json()).toEqual({ ok: true, restart_required: false });
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ RateLimiting: { IpLimit: 500 }, Logging: { MinLevel: 'info' }, WebUi: { SecureCookies: true } });
      expect(JSON.parse(readFileSync(`${file}.bak`, 'utf8'))).toEqual({ RateLimiting: { IpLimit: 500 }, Logging: { MinLevel: 'warn' } });
      expect(((await send('GET', '/ui/api/settings')).json() as { security: { secure_cookies: boolean } }).security.secure_cookies).toBe(true);
      expect(readFileSync(path.join(server.project.environmentsDir, 'settings.json'), 'utf8')).not.toContain('500');
    });
  });

  describe('environments', () => {
    it('GET masks every connection string', async () => {
      const response = await send('GET', '/ui/api/environments');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        server_name: 'test-server',
        allowed_environments: ['demo', 'prod'],
        environments: {
          demo: { provider: 'embedded', connection_string: '<CONNECTION_STRING>' },
          prod: { provider: 'postgres', connection_string: '<CONNECTION_STRING>' },
        },
      });
      expect(response.body).not.toContain('hunter2');
    });

    it('PATCH refuses bad names and bad values with 400 and writes nothing', async () => {
      const bad = await send('PATCH', '/ui/api/environments', { environments: { '../etc': { connection_string: 'x' } } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: "Environment name '../etc' may only contain letters, digits, _ and -", field: 'environments.../etc' });
      const noConnection = await send('PATCH', '/ui/api/environments', { environments: { staging: { provider: 'postgres' } } });
      expect(noConnection.json()).toEqual({ error: 'environments.staging: ConnectionString is required for Provider postgres', field: 'environments.staging' });
      expect(existsSync(path.join(server.project.environmentsDir, 'staging'))).toBe(false);
      const list = await send('PATCH', '/ui/api/environments', { allowed_environments: 'demo' });
      expect(list.json()).toEqual({ error: 'allowed_environments must be a list of environment names (letters, digits, _ and -)', field: 'allowed_environments' });
    });

    it('PATCH merges, keeps a masked connection string, adds an environment and reloads without a restart', async () => {
      const prodFile = path.join(server.project.environmentsDir, 'prod', 'settings.json');
      const before = readFileSync(prodFile, 'utf8');
      const seen: unknown[] = [];
      const stop = gatewayOf(server.app).console.events.subscribe((event) => seen.push([event.name, event.data]));
      expect((await server.inject({ method: 'GET', url: '/api/staging/Inventory/Products' })).statusCode).toBe(400);
      const old = gatewayOf(server.app).settings;
      const oldAllowed = old.server.environment.allowedEnvironments;
      const oldNames = [...old.environments.keys()];
      const response = await send('PATCH', '/ui/api/environments', {
        allowed_environments: ['demo', 'prod', 'staging'],
        environments: {
          prod: { connection_string: '<CONNECTION_STRING>' },
          staging: { provider: 'postgres', connection_string: 'postgres://app:s3cret-staging@db/staging' },
        },
      });
      stop();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        server_name: 'test-server',
        allowed_environments: ['demo', 'prod', 'staging'],
        environments: {
          demo: { provider: 'embedded', connection_string: '<CONNECTION_STRING>' },
          prod: { provider: 'postgres', connection_string: '<CONNECTION_STRING>' },
          staging: { provider: 'postgres', connection_string: '<CONNECTION_STRING>' },
        },
      });
      expect(JSON.parse(readFileSync(prodFile, 'utf8'))).toEqual(JSON.parse(before));
      expect(readFileSync(`${prodFile}.bak`, 'utf8')).toBe(before);
      const staging = JSON.parse(readFileSync(path.join(server.project.environmentsDir, 'staging', 'settings.json'), 'utf8'));
      expect(staging).toEqual({ Provider: 'postgres', ConnectionString: 'postgres://app:s3cret-staging@db/staging' });
      expect(seen).toEqual([['environments_changed', { environments: ['prod', 'staging'] }]]);
      expect((await server.inject({ method: 'GET', url: '/api/staging/Inventory/Products' })).statusCode).toBe(200);
      expect(server.logs.text()).not.toContain('s3cret-staging');
      // A new settings value was swapped in; the one shared before is not edited in place (it is frozen).
      expect(gatewayOf(server.app).settings).not.toBe(old);
      expect(Object.isFrozen(gatewayOf(server.app).settings.server.environment)).toBe(true);
      expect(old.server.environment.allowedEnvironments).toBe(oldAllowed);
      expect([...old.environments.keys()]).toEqual(oldNames);
    });
  });
});
