/**
 * Console accounts, sign-in, sessions, CSRF, roles, lockout and bearer tokens through the real
 * buildServer (inject): every status and body literally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { cookiesOf, csrfCookie, postSignIn, sessionFrom, signIn } from './console-client.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const SEED = 'demo-password-1';
const UNAUTHORIZED = { error: 'Unauthorized', message: 'Sign in to the console or send a bearer token with scope *.' };
const denied = (path: string) => ({ error: 'Access denied', clientIp: '127.0.0.1', requestedPath: path });

describe('console sign-in with WebUi:SeedPassword', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
      serverSettings: {
        Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] },
        WebUi: { SeedPassword: SEED, AdminApiKey: 'the-admin-api-key-0123', SignInAttemptsPerIp: 50 },
      },
    });
  });
  afterAll(() => server.close());

  it('creates `admin` with the seed password and logs no password', () => {
    expect(server.logs.text()).toContain("Created the console administrator 'admin' with the WebUi:SeedPassword password (demo only)");
    expect(server.logs.text()).not.toContain(SEED);
  });

  it('GET /ui/api/auth/csrf returns a value and sets gateway_signin_csrf (never the session\'s gateway_csrf)', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/ui/api/auth/csrf' });
    expect(response.statusCode).toBe(200);
    const { csrf } = response.json() as { csrf: string };
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.headers['set-cookie']).toBe(`gateway_signin_csrf=${csrf}; Path=/ui/api/auth; Max-Age=3600; SameSite=Strict; HttpOnly`);
  });

  it('signs in: {ok:true}, HttpOnly SameSite=Strict gateway_auth and a readable gateway_csrf', async () => {
    const response = await postSignIn(server.app, 'admin', SEED);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    const set = response.headers['set-cookie'] as string[];
    expect(set[0]).toMatch(/^gateway_auth=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; SameSite=Strict; HttpOnly$/);
    expect(set[1]).toMatch(/^gateway_csrf=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; SameSite=Strict$/);
  });

  it('refuses a sign-in without the CSRF cookie value (403) and a wrong password (401)', async () => {
    const noCsrf = await server.app.inject({ method: 'POST', url: '/ui/api/auth', payload: { username: 'admin', password: SEED, csrf: 'x' } });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json()).toEqual(denied('/ui/api/auth'));
    const wrong = await postSignIn(server.app, 'admin', 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Unauthorized', message: 'Invalid username or password.' });
    expect(cookiesOf(wrong)).toEqual({});
    const unknown = await postSignIn(server.app, 'nobody', 'whatever-password');
    expect(unknown.json()).toEqual({ error: 'Unauthorized', message: 'Invalid username or password.' });
    expect(server.logs.text()).not.toContain('not-the-password');
    expect(server.logs.text()).toContain('console sign-in failed');
  });

  it('a CSRF value from GET /ui/api/auth/csrf signs in once: used again it is 403, also with the right password', async () => {
    const csrf = await csrfCookie(server.app);
    const signInWith = (value: string) =>
      server.app.inject({ method: 'POST', url: '/ui/api/auth', headers: { cookie: `gateway_csrf=${value}` }, payload: { username: 'admin', password: SEED, csrf: value } });
    const first = await signInWith(csrf);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true });
    const replay = await signInWith(csrf);
    expect(replay.statusCode).toBe(403);
    expect(replay.json()).toEqual(denied('/ui/api/auth'));
    expect(cookiesOf(replay)).toEqual({});
    // a value never issued by the server, even when cookie and body agree (plain double submit), is refused too
    const forged = await signInWith('B'.repeat(43));
    expect(forged.statusCode).toBe(403);
    // a failed attempt uses the value up as well
    const other = await csrfCookie(server.app);
    const wrong = await server.app.inject({ method: 'POST', url: '/ui/api/auth', headers: { cookie: `gateway_csrf=${other}` }, payload: { username: 'admin', password: 'wrong-password', csrf: other } });
    expect(wrong.statusCode).toBe(401);
    expect((await signInWith(other)).statusCode).toBe(403);
  });

  it('no session: 401; a session: 200; writes need X-CSRF-Token equal to the cookie (403)', async () => {
    const anonymous = await server.app.inject({ method: 'GET', url: '/ui/api/overview' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(UNAUTHORIZED);
    const session = await signIn(server.app, 'admin', SEED);
    expect((await session.request('GET', '/ui/api/overview')).statusCode).toBe(200);
    const missing = await session.request('POST', '/ui/api/tokens', { username: 'x' }, { 'x-csrf-token': '' });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toEqual(denied('/ui/api/tokens'));
    const other = await session.request('POST', '/ui/api/tokens', { username: 'x' }, { 'x-csrf-token': 'A'.repeat(43) });
    expect(other.statusCode).toBe(403);
    const ok = await session.request('POST', '/ui/api/tokens', { username: 'csrf-ok' });
    expect(ok.statusCode).toBe(201);
  });

  it('sign-out ends the session everywhere (DELETE /ui/api/auth)', async () => {
    const session = await signIn(server.app, 'admin', SEED);
    const out = await session.request('DELETE', '/ui/api/auth');
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    expect(out.headers['set-cookie']).toEqual([
      'gateway_auth=; Path=/; Max-Age=0; SameSite=Strict; HttpOnly',
      'gateway_csrf=; Path=/; Max-Age=0; SameSite=Strict',
    ]);
    expect((await session.request('GET', '/ui/api/overview')).statusCode).toBe(401);
  });

  it('viewer: reads 200, writes 403, role re-read on every request', async () => {
    await gatewayOf(server.app).console.accounts.create('watcher', 'watcher-password', 'viewer');
    const viewer = await signIn(server.app, 'watcher', 'watcher-password');
    expect((await viewer.request('GET', '/ui/api/tokens')).statusCode).toBe(200);
    const write = await viewer.request('POST', '/ui/api/tokens', { username: 'viewer-made' });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual(denied('/ui/api/tokens'));
    await gatewayOf(server.app).console.accounts.setRole('watcher', 'administrator');
    expect((await viewer.request('POST', '/ui/api/tokens', { username: 'viewer-made' })).statusCode).toBe(201);
    await gatewayOf(server.app).console.accounts.setDisabled('watcher', true);
    expect((await viewer.request('GET', '/ui/api/tokens')).statusCode).toBe(401);
  });

  it('a bearer token with scope * works without cookies or CSRF; other scopes 403; bad token 401', async () => {
    const all = await server.inject({ method: 'POST', url: '/ui/api/tokens', payload: { username: 'script-made' } });
    expect(all.statusCode).toBe(201);
    const { token } = await gatewayOf(server.app).access.tokens.create({ username: 'reader', allowedScopes: 'read' });
    const read = await server.app.inject({ method: 'GET', url: '/ui/api/tokens', headers: { authorization: `Bearer ${token}` } });
    expect(read.statusCode).toBe(403);
    expect(read.json()).toEqual(denied('/ui/api/tokens'));
    const bad = await server.app.inject({ method: 'GET', url: '/ui/api/tokens', headers: { authorization: 'Bearer wharf_nope' } });
    expect(bad.statusCode).toBe(401);
  });

  it('a `*` token limited to one environment is no console administrator: 403, mints nothing', async () => {
    const { token } = await gatewayOf(server.app).access.tokens.create({ username: 'demo-only', allowedScopes: '*', allowedEnvironments: 'demo' });
    const bearer = { authorization: `Bearer ${token}` };
    const before = await gatewayOf(server.app).access.tokens.list(true);
    const mint = await server.app.inject({ method: 'POST', url: '/ui/api/tokens', headers: bearer, payload: { username: 'minted-everywhere', allowed_environments: '*' } });
    expect(mint.statusCode).toBe(403);
    expect(mint.json()).toEqual(denied('/ui/api/tokens'));
    const widen = await server.app.inject({ method: 'PUT', url: `/ui/api/tokens/${before.find((row) => row.username === 'demo-only')!.id}`, headers: bearer, payload: { allowed_environments: '*' } });
    expect(widen.statusCode).toBe(403);
    const read = await server.app.inject({ method: 'GET', url: '/ui/api/settings', headers: bearer });
    expect(read.statusCode).toBe(403);
    expect(await gatewayOf(server.app).access.tokens.list(true)).toEqual(before);
  });

  it('locks an account after 5 failed sign-ins (429 with Retry-After), even for the right password', async () => {
    await gatewayOf(server.app).console.accounts.create('locky', 'locky-password', 'administrator');
    for (let i = 0; i < 4; i++) expect((await postSignIn(server.app, 'locky', 'wrong-password')).statusCode).toBe(401);
    const fifth = await postSignIn(server.app, 'locky', 'wrong-password');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual({ error: 'Too many requests', message: 'Too many failed sign-ins for this account. Try again in 900 seconds.' });
    expect(fifth.headers['retry-after']).toBe('900');
    const right = await postSignIn(server.app, 'locky', 'locky-password');
    expect(right.statusCode).toBe(429);
  });

  it('{apiKey} signs in as administrator when WebUi:AdminApiKey matches', async () => {
    const wrong = await server.app.inject({ method: 'POST', url: '/ui/api/auth', payload: { apiKey: 'nope' } });
    expect(wrong.statusCode).toBe(401);
    const response = await server.app.inject({ method: 'POST', url: '/ui/api/auth', payload: { apiKey: 'the-admin-api-key-0123' } });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { ok: boolean; expires: string };
    expect(body.ok).toBe(true);
    expect(Date.parse(body.expires) - Date.now()).toBeGreaterThan(11 * 3_600_000);
    const session = sessionFrom(server.app, response);
    expect((await session.request('POST', '/ui/api/tokens', { username: 'apikey-made' })).statusCode).toBe(201);
    expect(server.logs.text()).not.toContain('the-admin-api-key-0123');
  });

  it('answers an unknown console route with 404 in the console shape', async () => {
    const response = await server.inject({ method: 'GET', url: '/ui/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Not found', message: 'No console route GET /ui/api/nothing-here' });
  });
});

describe('first start without a seed password', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({
      generated: { endpoints: [] },
      serverSettings: { Environment: { ServerName: 'test' }, WebUi: { SignInAttemptsPerIp: 3, SignInWindowSeconds: 600 } },
    });
  });
  afterAll(() => server.close());

  it('logs a one-time password once, forces a change, then signs in', async () => {
    const line = server.logs.lines().find((entry) => String(entry['msg']).startsWith('Created the first console administrator'));
    const match = /'(admin-[a-z0-9]{1,8})' with the one-time password (\S+) /.exec(String(line?.['msg']));
    expect(match).not.toBeNull();
    const [, username, password] = match as unknown as [string, string, string];
    const first = await postSignIn(server.app, username, password);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: false, must_change_password: true });
    expect(first.headers['set-cookie']).toBeUndefined();

    const csrf = await csrfCookie(server.app);
    const short = await server.app.inject({
      method: 'POST', url: '/ui/api/auth/password', headers: { cookie: `gateway_csrf=${csrf}` },
      payload: { username, password, newPassword: 'short', csrf },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ error: 'The password must be at least 12 characters long', field: 'newPassword' });
    // one character short of the rule the form and docs state (12): refused too
    const eleven = await server.app.inject({
      method: 'POST', url: '/ui/api/auth/password', headers: { cookie: `gateway_csrf=${csrf}` },
      payload: { username, password, newPassword: 'eleven-char', csrf },
    });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json()).toEqual({ error: 'The password must be at least 12 characters long', field: 'newPassword' });
    const changed = await server.app.inject({
      method: 'POST', url: '/ui/api/auth/password', headers: { cookie: `gateway_csrf=${csrf}` },
      payload: { username, password, newPassword: 'a-better-password', csrf },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ ok: true });
    // a refused input (400) did not use the value up; the change did
    const replay = await server.app.inject({
      method: 'POST', url: '/ui/api/auth/password', headers: { cookie: `gateway_csrf=${csrf}` },
      payload: { username, password: 'a-better-password', newPassword: 'a-third-password', csrf },
    });
    expect(replay.statusCode).toBe(403);
    const session = sessionFrom(server.app, changed);
    expect((await session.request('GET', '/ui/api/overview')).statusCode).toBe(200);
  });

  it('limits sign-in attempts per IP (WebUi:SignInAttemptsPerIp)', async () => {
    // 2 attempts were used above (sign-in + password change count one each; the short one was refused before counting)
    const third = await postSignIn(server.app, 'someone', 'whatever-pass', '10.9.9.9');
    expect(third.statusCode).toBe(401);
    for (let i = 0; i < 2; i++) await postSignIn(server.app, 'someone', 'whatever-pass', '10.9.9.9');
    const over = await postSignIn(server.app, 'someone', 'whatever-pass', '10.9.9.9');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: 'Too many requests', message: 'Too many sign-in attempts from this address. Try again in 600 seconds.' });
  });
});

describe('console rate limit', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({
      generated: { endpoints: [] },
      serverSettings: { Environment: { ServerName: 'test' }, WebUi: { SeedPassword: SEED }, RateLimiting: { IpLimit: 3, IpWindow: 60 } },
    });
  });
  afterAll(() => server.close());

  it('counts console requests per IP on their own budget: 429 on excess', async () => {
    for (let i = 0; i < 3; i++) expect((await server.inject({ method: 'GET', url: '/ui/api/overview' })).statusCode).toBe(200);
    const over = await server.inject({ method: 'GET', url: '/ui/api/overview' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: 'Too many requests', message: expect.stringMatching(/^Too many requests\. Retry after \d+ seconds\.$/) });
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
  });
});
