/**
 * Console single sign-on in headless Chromium against a real OpenID provider on loopback
 * (oidc-provider, scripts/idp/local-idp.mjs) and a listening gateway: the "Sign in with" button,
 * the provider's login page, an identity linked to no account refused, a viewer linking its own
 * identity from the Account page, signing in with it, unlinking it, the role claim making an
 * administrator, the state good for one callback only, `return` refused unless under /ui/, the
 * settings dump telling the truth, and a second gateway with WebUi:LocalPasswords false and
 * WebUi:Oidc:CreateAccounts true.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { closeChromium, launchChromium } from '../setup/chromium.js';
import { freePort } from '../setup/free-port.js';
import { startOidcProvider, type LocalIdp } from '../setup/oidc.js';
import { startSqlTestServer, type SqlTestServer } from '../sql/http-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const CLIENT = { client_id: 'wharf-console', client_secret: 'console-client-secret-0123456789' };

let idp: LocalIdp;
let server: SqlTestServer;
let strict: SqlTestServer;
let browser: Browser;
let origin: string;
let strictOrigin: string;

function ssoSettings(issuer: string, extra: Record<string, unknown> = {}) {
  return {
    Auth: { Jwt: { Issuer: issuer, Audience: 'wharf-api' } },
    WebUi: { SeedPassword: 'seed-password-for-tests-1', Oidc: { Enabled: true, ClientId: CLIENT.client_id, ClientSecret: CLIENT.client_secret, DisplayName: 'Local IdP' }, ...extra },
  };
}

beforeAll(async () => {
  const [port, strictPort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  strictOrigin = `http://127.0.0.1:${strictPort}`;
  idp = await startOidcProvider({
    audience: 'wharf-api',
    scopes: ['read'],
    clients: [{ ...CLIENT, scope: 'openid profile', redirect_uris: [`${origin}/ui/api/auth/oidc/callback`, `${strictOrigin}/ui/api/auth/oidc/callback`] }],
    users: { alice: { roles: ['wharf-admin'] }, victor: { roles: ['reader'] }, carol: { preferred_username: 'carol.c' } },
  });
  server = await startSqlTestServer('postgres://postgres@127.0.0.1:9/none', 9, { environments: ['demo'], settings: ssoSettings(idp.issuer) });
  await server.app.listen({ port, host: '127.0.0.1' });
  strict = await startSqlTestServer('postgres://postgres@127.0.0.1:9/none', 9, { environments: ['demo'], settings: ssoSettings(idp.issuer, { LocalPasswords: false, Oidc: { Enabled: true, ClientId: CLIENT.client_id, ClientSecret: CLIENT.client_secret, DisplayName: 'Local IdP', CreateAccounts: true } }) });
  await strict.app.listen({ port: strictPort, host: '127.0.0.1' });
  await gatewayOf(server.app).console.accounts.create('viewer1', 'viewer-password-123', 'viewer', false);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await closeChromium(browser);
  await server?.close();
  await strict?.close();
  await idp?.close();
}, 120_000);

/** At the provider's development login page (any login; the password is not checked). */
async function providerLogin(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').waitFor();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.locator('button.login-submit').click();
}

function logged(message: string): Record<string, unknown>[] {
  return server.logs.lines().filter((line) => line['msg'] === message);
}

async function fresh(): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return [context, await context.newPage()];
}

describe('console single sign-on in Chromium', { timeout: 90_000 }, () => {
  it('refuses an identity linked to no account (WebUi:Oidc:CreateAccounts false)', async () => {
    const [context, page] = await fresh();
    await page.goto(`${origin}/ui/`);
    await page.getByRole('link', { name: 'Sign in with Local IdP' }).click();
    expect(page.url().startsWith(idp.issuer)).toBe(true);
    await providerLogin(page, 'nobody');
    await page.waitForURL(/\/ui\/api\/auth\/oidc\/callback/);
    // a page for the browser (console-sso-errors.test.ts: the same refusal as JSON for a script)
    expect(await page.locator('#reason').textContent()).toBe('Access denied: no console account is linked to this identity');
    await page.getByRole('link', { name: 'Back to the sign-in page' }).waitFor();
    expect(await context.cookies()).not.toContainEqual(expect.objectContaining({ name: 'gateway_auth' }));
    expect(logged('console single sign-on: no account linked to this identity')).toMatchObject([{ subject: 'nobody' }]);
    await context.close();
  });

  it('a viewer links its own identity, signs in with it, then unlinks it', async () => {
    const [context, page] = await fresh();
    await page.goto(`${origin}/ui/#/account`);
    await page.getByLabel('Username').fill('viewer1');
    await page.getByLabel('Password', { exact: true }).fill('viewer-password-123');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await expect.poll(() => page.locator('#sso-identity').textContent()).toContain('No identity linked');
    await page.getByRole('button', { name: 'Link Local IdP' }).click();
    await providerLogin(page, 'victor');
    await page.waitForURL(`${origin}/ui/#/account`);
    await expect.poll(() => page.locator('#sso-identity').textContent()).toContain('Linked to victor');
    const linked = await gatewayOf(server.app).console.accounts.store.findByIdentity(idp.issuer, 'victor');
    expect(linked?.username).toBe('viewer1');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with Local IdP' }).click();
    // the provider remembers victor: straight back, signed in as the linked account, role from the claim
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect(await page.locator('.who').textContent()).toBe('viewer1 (viewer)');

    await page.getByRole('button', { name: 'Unlink Local IdP' }).click();
    await expect.poll(() => page.locator('#sso-identity').textContent()).toContain('No identity linked');
    expect(await gatewayOf(server.app).console.accounts.store.findByIdentity(idp.issuer, 'victor')).toBeNull();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with Local IdP' }).click();
    await page.waitForURL(/\/ui\/api\/auth\/oidc\/callback/);
    expect(await page.locator('#reason').textContent()).toBe('Access denied: no console account is linked to this identity');
    expect(logged('console single sign-on: no account linked to this identity').at(-1)).toMatchObject({ subject: 'victor' });
    await context.close();
  });

  it('maps the role claim to administrator, and the state serves one callback only', async () => {
    const ops = await gatewayOf(server.app).console.accounts.create('ops', 'ops-password-12345', 'viewer', false);
    await gatewayOf(server.app).console.accounts.store.linkIdentity({ accountId: ops.id, issuer: idp.issuer, subject: 'alice', linkedAt: Date.now() });
    const [context, page] = await fresh();
    let callback = '';
    page.on('request', (request) => {
      if (request.url().includes('/ui/api/auth/oidc/callback')) callback = request.url();
    });
    await page.goto(`${origin}/ui/#/tokens`);
    await page.getByRole('link', { name: 'Sign in with Local IdP' }).click();
    await providerLogin(page, 'alice');
    await page.getByRole('heading', { name: 'Tokens' }).waitFor();
    expect(page.url()).toBe(`${origin}/ui/#/tokens`);
    expect(await page.locator('.who').textContent()).toBe('ops (administrator)');
    expect((await gatewayOf(server.app).console.accounts.get('ops')).role).toBe('administrator');
    // the settings dump: OpenID Connect in use, one provider
    const features = await page.evaluate(async () => ((await (await fetch('/ui/api/settings')).json()) as { features: unknown }).features);
    expect(features).toMatchObject({ oidc: true, oidc_providers: 1 });
    // the same callback again (code and state replayed): refused before the provider is asked
    const replay = await page.goto(callback);
    expect(replay?.status()).toBe(403);
    expect(logged('console single sign-on: unknown, reused or foreign state')).toHaveLength(1);
    await context.close();
  });

  it('refuses a return address outside /ui/ (no open redirect)', async () => {
    for (const target of ['https://evil.example/', '//evil.example/ui/', '/ui/\\evil', '/api/x', '/ui//evil.example']) {
      const response = await fetch(`${origin}/ui/api/auth/oidc/start?return=${encodeURIComponent(target)}`, { redirect: 'manual' });
      expect(response.status, target).toBe(400);
      expect(await response.json()).toMatchObject({ error: expect.stringContaining('return') });
    }
    const ok = await fetch(`${origin}/ui/api/auth/oidc/start?return=${encodeURIComponent('/ui/#/logs')}`, { redirect: 'manual' });
    expect(ok.status).toBe(302);
    const to = new URL(ok.headers.get('location')!);
    expect(to.origin).toBe(idp.issuer);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('nonce')).toMatch(/.{20,}/);
    expect(ok.headers.get('set-cookie')).toMatch(/^gateway_oidc=[^;]+; Path=\/ui\/api\/auth\/oidc; Max-Age=600; SameSite=Lax; HttpOnly/);
  });

  it('links only for a signed-in account, never an identity another account holds', async () => {
    // a bearer token is no account: nothing to link
    const byToken = await fetch(`${origin}/ui/api/auth/oidc/identity`, { method: 'POST', headers: { authorization: server.authorization } });
    expect(byToken.status).toBe(403);
    // viewer2 links bob; viewer3 then tries to link bob too: 409, and bob stays viewer2's
    const accounts = gatewayOf(server.app).console.accounts;
    const two = await accounts.create('viewer2', 'viewer-password-223', 'viewer', false);
    await accounts.create('viewer3', 'viewer-password-323', 'viewer', false);
    await accounts.store.linkIdentity({ accountId: two.id, issuer: idp.issuer, subject: 'bob', linkedAt: Date.now() });
    const [context, page] = await fresh();
    await page.goto(`${origin}/ui/#/account`);
    await page.getByLabel('Username').fill('viewer3');
    await page.getByLabel('Password', { exact: true }).fill('viewer-password-323');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Link Local IdP' }).click();
    await providerLogin(page, 'bob');
    await page.waitForURL(/\/ui\/api\/auth\/oidc\/callback/);
    expect(await page.locator('#reason').textContent()).toMatch(/linked/);
    expect(await page.locator('.status').textContent()).toBe('409');
    expect((await accounts.store.findByIdentity(idp.issuer, 'bob'))?.username).toBe('viewer2');
    await context.close();
  });

  it('with WebUi:LocalPasswords false: no password sign-in, single sign-on only', async () => {
    const csrf = await fetch(`${strictOrigin}/ui/api/auth/csrf`);
    const { csrf: value } = (await csrf.json()) as { csrf: string };
    const refused = await fetch(`${strictOrigin}/ui/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `gateway_csrf=${value}` },
      body: JSON.stringify({ username: 'admin', password: 'seed-password-for-tests-1', csrf: value }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'Access denied' });
    const admin = await gatewayOf(strict.app).console.accounts.get('admin');
    await gatewayOf(strict.app).console.accounts.store.linkIdentity({ accountId: admin.id, issuer: idp.issuer, subject: 'alice', linkedAt: Date.now() });
    const [context, page] = await fresh();
    await page.goto(`${strictOrigin}/ui/`);
    await page.getByText('Password sign-in is turned off').waitFor();
    expect(await page.getByLabel('Username').count()).toBe(0);
    await page.getByRole('link', { name: 'Sign in with Local IdP' }).click();
    await providerLogin(page, 'alice');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.locator('.who').textContent()).toBe('admin (administrator)');
    await context.close();
  });

  it('with WebUi:Oidc:CreateAccounts: a new identity gets its own account, named after preferred_username', async () => {
    expect(await gatewayOf(strict.app).console.accounts.store.findByName('carol.c')).toBeNull();
    const [context, page] = await fresh();
    await page.goto(`${strictOrigin}/ui/`);
    await page.getByRole('link', { name: 'Sign in with Local IdP' }).click();
    await providerLogin(page, 'carol');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.locator('.who').textContent()).toBe('carol.c (viewer)');
    expect((await gatewayOf(strict.app).console.accounts.store.findByIdentity(idp.issuer, 'carol'))?.username).toBe('carol.c');
    await context.close();
  });
});
