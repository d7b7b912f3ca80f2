/**
 * Console single sign-on when it fails: a provider that is down or frozen answers 503
 * CONSOLE_SSO_UNAVAILABLE ("try again"; discovery is retried), an answer that does not verify 401
 * CONSOLE_SSO_FAILED ("start again"), and the two routes a browser navigates to (start, callback)
 * give a browser (Accept: text/html) a page with the same status and reason, a script the JSON
 * body. The provider is the real local one (scripts/idp/local-idp.mjs) on a port fixed before the
 * gateway starts, so the gateway can start while it is down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type LocalIdp } from '../setup/oidc.js';
import { freePort } from '../setup/free-port.js';
import { startSqlTestServer, type SqlTestServer } from '../sql/http-server.js';
import { providerUnreachable } from '../../runtime/admin/sso-errors.js';

const CLIENT = { client_id: 'wharf-console', client_secret: 'console-client-secret-0123456789' };
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const UNAVAILABLE = 'The single sign-on provider cannot be reached. Try again shortly.';
const FAILED = "Single sign-on failed: the identity provider's answer could not be verified. Start the sign-in again.";

let port: number;
let idp: LocalIdp | null = null;
let server: SqlTestServer;

function startIdp(): Promise<LocalIdp> {
  return startOidcProvider({
    port,
    audience: 'wharf-api',
    scopes: ['read'],
    clients: [{ ...CLIENT, scope: 'openid profile', redirect_uris: ['http://localhost:80/ui/api/auth/oidc/callback'] }],
  });
}

/** A flow begun at /start: its state and the flow cookie the browser would carry back. */
async function begin(): Promise<{ state: string; cookie: string }> {
  const response = await server.app.inject({ method: 'GET', url: '/ui/api/auth/oidc/start', headers: { host: 'localhost:80' } });
  expect(response.statusCode).toBe(302);
  const state = new URL(String(response.headers['location'])).searchParams.get('state')!;
  const cookie = String(response.headers['set-cookie']).split(';')[0]!;
  return { state, cookie };
}

function callback(flow: { state: string; cookie: string }, accept: string) {
  return server.app.inject({
    method: 'GET',
    url: `/ui/api/auth/oidc/callback?code=not-a-code-the-provider-issued&state=${encodeURIComponent(flow.state)}&iss=${encodeURIComponent(`http://127.0.0.1:${port}`)}`,
    headers: { host: 'localhost:80', cookie: flow.cookie, accept },
  });
}

beforeAll(async () => {
  port = await freePort();
  server = await startSqlTestServer('postgres://postgres@127.0.0.1:9/none', 9, {
    environments: ['demo'],
    logger: false,
    settings: {
      Auth: { Jwt: { Issuer: `http://127.0.0.1:${port}`, Audience: 'wharf-api' } },
      WebUi: { SeedPassword: 'seed-password-for-tests-1', Oidc: { Enabled: true, ClientId: CLIENT.client_id, ClientSecret: CLIENT.client_secret } },
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await idp?.close();
});

describe('console single sign-on failures', { timeout: 60_000 }, () => {
  it('a provider that is down: 503 to a script (JSON) and to a browser (a page), then the sign-in works once it is up', async () => {
    const script = await server.app.inject({ method: 'GET', url: '/ui/api/auth/oidc/start', headers: { accept: 'application/json' } });
    expect(script.statusCode).toBe(503);
    expect(script.headers['content-type']).toMatch(/^application\/json/);
    expect(script.json()).toMatchObject({ success: false, error: UNAVAILABLE });

    const browser = await server.app.inject({ method: 'GET', url: '/ui/api/auth/oidc/start', headers: { accept: HTML } });
    expect(browser.statusCode).toBe(503);
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(browser.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(browser.headers['cache-control']).toBe('no-store');
    expect(browser.headers['set-cookie']).toBeUndefined();
    expect(browser.body).toContain(`<p id="reason">${UNAVAILABLE}</p>`);
    expect(browser.body).toContain('<a href="/ui/">Back to the sign-in page</a>');

    idp = await startIdp();
    const flow = await begin(); // discovery tried again, not the failure remembered
    expect(flow.state.length).toBeGreaterThan(10);
  });

  it('an answer the provider does not honour (a forged code): 401 CONSOLE_SSO_FAILED, as JSON or as a page', async () => {
    const script = await callback(await begin(), 'application/json');
    expect(script.statusCode).toBe(401);
    expect(script.json()).toEqual({ error: 'Unauthorized', message: FAILED });

    const browser = await callback(await begin(), HTML);
    expect(browser.statusCode).toBe(401);
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');
    // the page names the reason, HTML-escaped (the apostrophe), and sets only the cleared flow cookie
    expect(browser.body).toContain(`<p id="reason">${FAILED.replace("'", '&#39;')}</p>`);
    expect(String(browser.headers['set-cookie'])).toMatch(/^gateway_oidc=; .*Max-Age=0/);
  });

  it('a refused state is a 403 page for a browser, with the reason', async () => {
    const browser = await callback({ state: 'forged', cookie: 'gateway_oidc=' }, HTML);
    expect(browser.statusCode).toBe(403);
    expect(browser.body).toContain('<p id="reason">Access denied: single sign-on state missing, foreign, expired or already used (start again)</p>');
  });

  it('the provider going down or freezing between start and callback: 503, within the request deadline', async () => {
    idp!.setReachable(false); // connections dropped
    const dropped = await callback(await beginWhileUp(), 'application/json');
    expect(dropped.statusCode).toBe(503);
    expect(dropped.json()).toMatchObject({ error: UNAVAILABLE });

    const flow = await beginWhileUp();
    idp!.setReachable('hang'); // accepts, never answers: the 10 s deadline of every provider request
    const started = Date.now();
    const frozen = await callback(flow, HTML);
    expect(frozen.statusCode).toBe(503);
    expect(frozen.body).toContain(UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(30_000);
    idp!.setReachable(true);
  });
});

/** /start needs no request to the provider once discovery is done; the provider is made reachable for it anyway. */
async function beginWhileUp(): Promise<{ state: string; cookie: string }> {
  const reachable = idp!.reachable;
  idp!.setReachable(true);
  const flow = await begin();
  if (!reachable) idp!.setReachable(false);
  return flow;
}

describe('providerUnreachable', () => {
  it('a refused connection, a timeout and a 5xx are unreachable; a refusal by the provider is not', async () => {
    const closed = await freePort();
    const refused = await fetch(`http://127.0.0.1:${closed}/`).catch((error: unknown) => error);
    expect(providerUnreachable(refused)).toBe(true);
    const timedOut = await fetch('http://127.0.0.1:9/', { signal: AbortSignal.timeout(1) }).catch((error: unknown) => error);
    expect(providerUnreachable(timedOut)).toBe(true);
    expect(providerUnreachable(Object.assign(new Error('server error'), { status: 502 }))).toBe(true);
    expect(providerUnreachable(new Error('wrapped', { cause: new Response('', { status: 503 }) }))).toBe(true);
    expect(providerUnreachable(Object.assign(new Error('invalid_grant'), { status: 400 }))).toBe(false);
    expect(providerUnreachable(new Error('unexpected JWT claim value encountered'))).toBe(false);
    expect(providerUnreachable(undefined)).toBe(false);
  });
});
