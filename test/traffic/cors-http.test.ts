/**
 * CORS through the real server wiring (Cors:* settings): preflight answered before authentication,
 * the allow-list per origin, Vary: Origin, credentials never with `*`, refusals readable by the app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../runtime/server.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { TempProject } from '../../runtime/testing/generated-fixture.js';
import { DEFAULT_ENVIRONMENTS } from '../../runtime/testing/test-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const APP = 'https://app.example.com';

describe('CORS', () => {
  let fixture: TempProject;
  const dirs: string[] = [];
  const apps: FastifyInstance[] = [];

  async function server(env: Record<string, string>): Promise<FastifyInstance> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wharf-cors-'));
    dirs.push(dataDir);
    const app = await buildServer({ generatedDir: fixture.generatedDir, environmentsDir: fixture.environmentsDir, dataDir, env, logger: false, handlers: ECHO_HANDLERS });
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    fixture = await createTempProject({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Sales/Orders', methods: ['GET', 'POST'] }] },
      serverSettings: { Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] }, RateLimiting: { IpLimit: 1000, TokenLimit: 1000 } },
      environments: DEFAULT_ENVIRONMENTS,
    });
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await fixture?.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const preflight = (app: FastifyInstance, origin: string, method = 'GET') =>
    app.inject({
      method: 'OPTIONS',
      url: '/api/demo/Sales/Orders',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
    });

  it('answers a preflight from a listed origin before authentication (no token), with Vary: Origin', async () => {
    const app = await server({ Cors__AllowedOrigins: `${APP},http://localhost:5173`, Cors__AllowCredentials: 'true', Cors__MaxAgeSeconds: '120' });
    const response = await preflight(app, APP, 'POST');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, QUERY, MERGE, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type, If-None-Match, If-Match',
      'access-control-max-age': '120',
    });
    expect(String(response.headers['vary'])).toMatch(/\bOrigin\b/);
  });

  it('gives an unlisted origin no CORS headers, and refusals of a listed one carry them', async () => {
    const app = await server({ Cors__AllowedOrigins: APP });
    const other = await preflight(app, 'https://evil.example');
    expect(other.statusCode).toBe(204);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers['access-control-allow-methods']).toBeUndefined();
    const refused = await app.inject({ method: 'GET', url: '/api/demo/Sales/Orders', headers: { origin: APP } });
    expect([refused.statusCode, refused.json()]).toEqual([401, { success: false, error: 'Authentication required' }]);
    expect(refused.headers['access-control-allow-origin']).toBe(APP);
    expect(refused.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(refused.headers['access-control-expose-headers'])).toContain('WWW-Authenticate');
    expect(refused.headers['vary']).toBe('Origin');
    const token = (await gatewayOf(app).access.tokens.create({ username: 'cors' })).token;
    const ok = await app.inject({ method: 'GET', url: '/api/demo/Sales/Orders', headers: { origin: APP, authorization: `Bearer ${token}` } });
    expect([ok.statusCode, ok.headers['access-control-allow-origin'], ok.headers['vary']]).toEqual([200, APP, 'Origin']);
    const stranger = await app.inject({ method: 'GET', url: '/api/demo/Sales/Orders', headers: { origin: 'https://evil.example', authorization: `Bearer ${token}` } });
    expect([stranger.statusCode, stranger.headers['access-control-allow-origin'], stranger.headers['vary']]).toEqual([200, undefined, 'Origin']);
  });

  it('`*` answers `*` without credentials; a method off the list gets no allow headers', async () => {
    const app = await server({ Cors__AllowedOrigins: '*', Cors__AllowedMethods: 'GET,QUERY' });
    const response = await preflight(app, 'https://anyone.example');
    expect([response.headers['access-control-allow-origin'], response.headers['access-control-allow-credentials']]).toEqual(['*', undefined]);
    expect(response.headers['access-control-allow-methods']).toBe('GET, QUERY');
    const post = await preflight(app, 'https://anyone.example', 'DELETE');
    expect([post.statusCode, post.headers['access-control-allow-origin']]).toEqual([204, undefined]);
  });

  it('without Cors:AllowedOrigins there are no CORS headers and OPTIONS needs a token as before', async () => {
    const app = await server({});
    const response = await preflight(app, APP);
    expect(response.statusCode).toBe(401);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['vary']).toBeUndefined();
  });

  it.each([
    ['`*` with credentials', { Cors__AllowedOrigins: '*', Cors__AllowCredentials: 'true' }, "Setting 'Cors:AllowCredentials' (from environment variable Cors__AllowCredentials) cannot be true while Cors:AllowedOrigins has '*' (list the origins instead)"],
    ['an origin with a path', { Cors__AllowedOrigins: 'https://app.example.com/' }, "Setting 'Cors:AllowedOrigins' (from environment variable Cors__AllowedOrigins) item 'https://app.example.com/' is not an origin (scheme://host[:port], no path or trailing slash)"],
    ['max age out of range', { Cors__AllowedOrigins: APP, Cors__MaxAgeSeconds: '90000' }, "Setting 'Cors:MaxAgeSeconds' (from environment variable Cors__MaxAgeSeconds) must be 86400 or less"],
  ])('refuses to start: %s', async (_name, env, message) => {
    await expect(server(env)).rejects.toThrow(message);
  });
});
