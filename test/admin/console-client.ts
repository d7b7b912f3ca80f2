/**
 * Test helper: a console session against a buildServer instance (inject), the way a browser holds
 * it: GET /ui/api/auth/csrf, POST /ui/api/auth, then the gateway_auth and gateway_csrf cookies on
 * every request and X-CSRF-Token on writes.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

/** The seeded administrator's password of signInServer(). */
export const SEED_PASSWORD = 'demo-password-1';

/** A test server whose `admin` signs in with SEED_PASSWORD, sign-in and rate limits far off (many attempts from one IP). */
export function signInServer(): Promise<TestServer> {
  return createTestServer({
    generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
    serverSettings: {
      Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] },
      WebUi: { SeedPassword: SEED_PASSWORD, SignInAttemptsPerIp: 1000 },
      RateLimiting: { IpLimit: 10_000 },
    },
  });
}

export interface ConsoleSession {
  readonly cookie: string;
  readonly csrf: string;
  request(method: string, url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  const header = response.headers['set-cookie'];
  const list = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const cookies: Record<string, string> = {};
  for (const line of list) {
    const [pair] = line.split(';');
    const index = pair!.indexOf('=');
    cookies[pair!.slice(0, index)] = pair!.slice(index + 1);
  }
  return cookies;
}

export async function csrfCookie(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/ui/api/auth/csrf' });
  return (response.json() as { csrf: string }).csrf;
}

/** POST /ui/api/auth with a fresh CSRF value; returns the raw response. */
export async function postSignIn(app: FastifyInstance, username: string, password: string, ip = '127.0.0.1'): Promise<LightMyRequestResponse> {
  const csrf = await csrfCookie(app);
  return app.inject({
    method: 'POST',
    url: '/ui/api/auth',
    remoteAddress: ip,
    headers: { cookie: `gateway_csrf=${csrf}` },
    payload: { username, password, csrf },
  });
}

export function sessionFrom(app: FastifyInstance, response: LightMyRequestResponse): ConsoleSession {
  const cookies = cookiesOf(response);
  const auth = cookies['gateway_auth'];
  const csrf = cookies['gateway_csrf'];
  if (!auth || !csrf) throw new Error(`no session cookies: ${response.statusCode} ${response.body}`);
  const cookie = `gateway_auth=${auth}; gateway_csrf=${csrf}`;
  return {
    cookie,
    csrf,
    request: (method, url, payload, headers = {}) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }), ...headers },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      }),
  };
}

export async function signIn(app: FastifyInstance, username: string, password: string): Promise<ConsoleSession> {
  return sessionFrom(app, await postSignIn(app, username, password));
}
