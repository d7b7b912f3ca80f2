/**
 * The sync dashboard (WebHost:Enabled) on a real listening port: / redirects to /ui, the page under
 * the console's strict CSP, /ui/api/overview per environment and object (last version, last
 * update, lag, throughput, state), connections and dead letters with their error; read-only without
 * WebHost:AdminKey; with it, sign-in (wrong key, lockout), the session's CSRF token and the Origin
 * check guard replay and purge, and a replay delivers the dead letter once the destination is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../runtime/admin/console-ui-routes.js';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { insertProducts, installOutbox, pgEnvironment, projectWith, startReceiver, until, type Receiver } from './sync-fixture.js';

const KEY = 'dashboard-admin-key-0123456789';
let db: TestPostgres;
let receiver: Receiver;
let admin: RunningSync;
let readOnly: RunningSync;

beforeAll(async () => {
  db = await startPostgres();
  await installOutbox(db.url);
  receiver = await startReceiver();
  const url = receiver.url;
  const service = (webHost: Record<string, unknown>) => ({
    Health: { Port: 0, FirstProbeDelaySeconds: 0.2 },
    WebHost: webHost,
    DeadLetters: { ReplayIntervalSeconds: 0.2, BackoffBaseSeconds: 3600 },
  });
  admin = await startSync({ root: await projectWith({ prod: pgEnvironment(db.url, [{ Type: 'Http', Key: 'hook', Url: url }]) }, service({ Enabled: true, AdminKey: KEY })), logLevel: 'silent' });
  readOnly = await startSync({ root: await projectWith({}, service({ Enabled: true })), logLevel: 'silent' });
  await until('state', () => admin.service.state.get('prod', 'Products'));
  await insertProducts(db.url, 2, 'DASH-');
  await until('a dead letter', () => admin.service.deadLetters.list().length === 1);
}, 120_000);

afterAll(async () => {
  await Promise.all([admin?.close(), readOnly?.close()]);
  await receiver?.close();
  await db?.stop();
});

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function call(on: RunningSync, method: string, route: string, options: { body?: unknown; cookie?: string; csrf?: string; origin?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.cookie) headers['cookie'] = options.cookie;
  if (options.csrf) headers['x-csrf-token'] = options.csrf;
  if (options.origin) headers['origin'] = options.origin;
  const response = await fetch(`${on.healthUrl}${route}`, { method, headers, redirect: 'manual', ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { text } };
}

async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const answer = await call(admin, 'POST', '/ui/api/session', { body: { key: KEY } });
  expect(answer.status).toBe(200);
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] as string;
  return { cookie, csrf: answer.body['csrf'] as string };
}

describe('sync dashboard', () => {
  it('redirects / to /ui, /ui to /ui/, and serves the page under the strict CSP', async () => {
    const root = await call(admin, 'GET', '/');
    expect([root.status, root.headers.get('location')]).toEqual([302, '/ui']);
    const ui = await call(admin, 'GET', '/ui');
    expect([ui.status, ui.headers.get('location')]).toEqual([301, '/ui/']);
    const page = await fetch(`${admin.healthUrl}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    const html = await page.text();
    expect(html).toContain('<title>Wharf sync</title>');
    const script = /src="(\/ui\/assets\/app\.[0-9a-f]{12}\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${admin.healthUrl}${script}`);
    expect([asset.status, asset.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    // the health routes stay
    expect((await call(admin, 'GET', '/health/deadletters')).body['TotalCount']).toBe(1);
  });

  it('/ui/api/overview: objects with version, update, lag, throughput and state; dead letters with their error', async () => {
    const { status, body, headers } = await call(admin, 'GET', '/ui/api/overview');
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    const stored = admin.service.state.get('prod', 'Products');
    const environments = body['environments'] as { name: string; objects: Record<string, unknown>[] }[];
    expect(environments.map((e) => e.name)).toEqual(['prod']);
    const [object] = environments[0]!.objects;
    expect(object).toMatchObject({
      name: 'Products',
      stored_procedure_name: 'sync.ProductChanges',
      last_version: stored?.version,
      last_updated: stored?.updated,
      throughput_per_minute: 0,
      state: 'blocked by dead letters',
      dead_letters: 1,
    });
    expect(object!['lag_seconds']).toEqual(expect.any(Number));
    const dead = body['dead_letters'] as { summary: Record<string, unknown>; items: Record<string, unknown>[] };
    expect(dead.summary).toMatchObject({ TotalCount: 1, MostCommonErrorCount: 1 });
    expect(dead.items).toHaveLength(1);
    expect(dead.items[0]).toMatchObject({ environment: 'prod', object: 'Products', destination: 'hook', status: 'pending', attempts: 0, error: dead.summary['MostCommonError'] });
    expect(String(dead.items[0]!['error'])).toMatch(/503/);
    expect(dead.items[0]).not.toHaveProperty('data');
  });

  it('read-only without WebHost:AdminKey: sign-in, replay and purge are refused with the registry body', async () => {
    expect((await call(readOnly, 'GET', '/ui/api/session')).body).toEqual({ configured: false, signed_in: false, csrf: null });
    const want = { status: 403, body: { success: false, error: 'The sync dashboard is read-only: set WebHost:AdminKey to replay or purge dead letters from it.' } };
    for (const [method, route, body] of [['POST', '/ui/api/session', { key: KEY }], ['POST', '/ui/api/deadletters/replay', { ids: 'all' }], ['POST', '/ui/api/deadletters/purge', { ids: 'all' }]] as const) {
      const answer = await call(readOnly, method, route, { body });
      expect({ status: answer.status, body: answer.body }, route).toEqual(want);
    }
    expect((await call(readOnly, 'GET', '/ui/api/overview')).body['environments']).toEqual([]);
  });

  it('replay needs a session and its CSRF token, from this origin', async () => {
    const replay = (options: { cookie?: string; csrf?: string; origin?: string }) => call(admin, 'POST', '/ui/api/deadletters/replay', { body: { ids: 'all' }, ...options });
    expect(await replay({})).toMatchObject({ status: 401, body: { success: false, error: 'Sign in to the sync dashboard with the administrator key (WebHost:AdminKey) first.' } });
    const { cookie, csrf } = await signIn();
    expect(cookie).toMatch(/^wharf_sync_session=[\w-]{43}$/);
    const wrongCsrf = { status: 403, body: { success: false, error: 'Missing or wrong CSRF token: reload the dashboard and try again.' } };
    expect(await replay({ cookie })).toMatchObject(wrongCsrf);
    expect(await replay({ cookie, csrf: `${csrf}x` })).toMatchObject(wrongCsrf);
    expect(await replay({ cookie, csrf, origin: 'http://127.0.0.1:1' })).toMatchObject(wrongCsrf);
    expect(await replay({ cookie, csrf, origin: 'null' })).toMatchObject(wrongCsrf);
    expect(await replay({ csrf })).toMatchObject({ status: 401 });
    expect((await call(admin, 'GET', '/ui/api/session', { cookie })).body).toEqual({ configured: true, signed_in: true, csrf });
    const bad = await call(admin, 'POST', '/ui/api/deadletters/replay', { body: { ids: [0, 'x'] }, cookie, csrf });
    expect(bad).toMatchObject({ status: 400, body: { success: false, error: 'Send {"ids": [<dead-letter id>, ...]} or {"ids": "all"}.' } });
    // the dead letter is still there: nothing above replayed it
    expect(admin.service.deadLetters.list()).toHaveLength(1);
  });

  it('the session cookie is HttpOnly, SameSite=Strict; the key is never echoed', async () => {
    const answer = await call(admin, 'POST', '/ui/api/session', { body: { key: KEY } });
    expect(answer.headers.get('set-cookie')).toMatch(/^wharf_sync_session=[\w-]+; Path=\/; Max-Age=28800; SameSite=Strict; HttpOnly$/);
    expect(JSON.stringify(answer.body)).not.toContain(KEY);
    expect(JSON.stringify((await call(admin, 'GET', '/ui/api/overview')).body)).not.toContain(KEY);
  });

  it('replays a dead letter: once the destination answers again it is delivered and the version advances', async () => {
    const before = admin.service.state.get('prod', 'Products')!.version;
    const [letter] = admin.service.deadLetters.list();
    receiver.failing = false;
    const { cookie, csrf } = await signIn();
    const answer = await call(admin, 'POST', '/ui/api/deadletters/replay', { body: { ids: [letter!.id] }, cookie, csrf, origin: admin.healthUrl! });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { replayed: 1 } });
    await until('the dead letter delivered', () => admin.service.deadLetters.list().length === 0);
    expect(admin.service.state.get('prod', 'Products')!.version).toBe(letter!.toVersion);
    expect(letter!.toVersion).toBeGreaterThan(before);
    // polling resumed: the next change goes straight through and counts as throughput
    await insertProducts(db.url, 3, 'DASH2-');
    const overview = await until('throughput counted', async () => {
      const body = (await call(admin, 'GET', '/ui/api/overview')).body as { environments: { objects: { throughput_per_minute: number; state: string }[] }[] };
      const object = body.environments[0]!.objects[0]!;
      return object.throughput_per_minute >= 3 && object.state === 'up to date' ? object : null;
    });
    expect(overview).toMatchObject({ state: 'up to date', lag_seconds: 0, dead_letters: 0 });
  });

  it('purge and sign-out', async () => {
    const { cookie, csrf } = await signIn();
    expect((await call(admin, 'POST', '/ui/api/deadletters/purge', { body: { ids: [999_999] }, cookie, csrf })).body).toEqual({ purged: 0 });
    expect((await call(admin, 'DELETE', '/ui/api/session', { cookie, csrf })).status).toBe(200);
    expect((await call(admin, 'POST', '/ui/api/deadletters/purge', { body: { ids: 'all' }, cookie, csrf })).status).toBe(401);
  });

  it('five wrong keys in a minute lock sign-in (429), the right key included', async () => {
    for (let i = 0; i < 5; i++) {
      expect(await call(admin, 'POST', '/ui/api/session', { body: { key: `wrong-key-${i}` } })).toMatchObject({ status: 401, body: { success: false, error: 'The administrator key is not correct.' } });
    }
    const locked = await call(admin, 'POST', '/ui/api/session', { body: { key: KEY } });
    expect(locked.status).toBe(429);
    expect(locked.body['error']).toMatch(/^Too many wrong administrator keys\. Try again in \d+ seconds\.$/);
  });

  it('with Health:Enabled false the listener still opens for the dashboard alone', async () => {
    const only = await startSync({ root: await projectWith({}, { Health: { Enabled: false, Port: 0 }, WebHost: { Enabled: true } }), logLevel: 'silent' });
    try {
      expect(only.healthUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await call(only, 'GET', '/')).headers.get('location')).toBe('/ui');
      expect((await call(only, 'GET', '/ui/api/overview')).status).toBe(200);
      expect((await call(only, 'GET', '/health')).status).toBe(404);
    } finally {
      await only.close();
    }
  });
});
