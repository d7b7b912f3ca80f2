/**
 * A link from another site to GET /ui/api/auth/csrf (a top-level navigation: the SameSite=Strict
 * session cookies are not sent with it, but its Set-Cookie is stored). Old behaviour: it set
 * gateway_csrf (Path=/) to a new sign-in value, replacing the signed-in session's CSRF cookie, so
 * every console write of the victim was 403 until they signed in again. Now the sign-in value goes
 * to its own cookie (gateway_signin_csrf, HttpOnly, Path=/ui/api/auth): the session's gateway_csrf
 * is never touched, and sign-in and sign-out work as before. The browser is a small cookie jar
 * (name + path, as RFC 6265 keeps them), so the test sees what a browser would send.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { SEED_PASSWORD, signInServer } from '../admin/console-client.js';

const SEED = SEED_PASSWORD;
let server: TestServer;
beforeAll(async () => {
  server = await signInServer();
});
afterAll(() => server.close());

/** Cookies keyed by name and path; Max-Age=0 deletes. */
class Browser {
  private readonly jar = new Map<string, { name: string; value: string; path: string }>();

  store(response: LightMyRequestResponse): void {
    const header = response.headers['set-cookie'];
    for (const line of header === undefined ? [] : Array.isArray(header) ? header : [header]) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      if (attributes.some((a) => a.toLowerCase() === 'max-age=0')) this.jar.delete(`${name} ${path}`);
      else this.jar.set(`${name} ${path}`, { name, value, path });
    }
  }

  /** The Cookie header for `url`: matching paths, longer paths first (RFC 6265 5.4). */
  cookie(url: string): string {
    const matches = (path: string) => path === '/' || url === path || url.startsWith(`${path}/`);
    return [...this.jar.values()]
      .filter((c) => matches(c.path))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  /** document.cookie of the console page under /ui/ (what the page sends as X-CSRF-Token). */
  pageCsrf(): string {
    return /(?:^|; )gateway_csrf=([^;]*)/.exec(this.cookie('/ui/'))?.[1] ?? '';
  }

  async send(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>, page = true): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { cookie: this.cookie(url) };
    if (method !== 'GET' && page) headers['x-csrf-token'] = this.pageCsrf();
    const response = await server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    this.store(response);
    return response;
  }
}

async function signedIn(): Promise<Browser> {
  const browser = new Browser();
  const { csrf } = (await browser.send('GET', '/ui/api/auth/csrf')).json() as { csrf: string };
  const signIn = await browser.send('POST', '/ui/api/auth', { username: 'admin', password: SEED, csrf }, false);
  expect(signIn.json()).toEqual({ ok: true });
  return browser;
}

const write = (browser: Browser) => browser.send('POST', '/ui/api/endpoints/sql/validate', { content: { DatabaseObjectName: 'Products' } });

describe('a link from another site to GET /ui/api/auth/csrf while signed in', () => {
  it("leaves the session's gateway_csrf alone: console writes keep working (they were 403)", async () => {
    const browser = await signedIn();
    const before = browser.pageCsrf();
    expect((await write(browser)).statusCode).toBe(200);
    // the navigation: no SameSite=Strict cookie goes with it, its Set-Cookie is kept
    const link = await server.app.inject({ method: 'GET', url: '/ui/api/auth/csrf' });
    browser.store(link);
    expect(browser.pageCsrf()).toBe(before);
    const after = await write(browser);
    expect(after.json()).toMatchObject({ valid: expect.any(Boolean) });
    expect(after.statusCode).toBe(200);
  });

  it('the sign-in value is HttpOnly on /ui/api/auth only; sign-out still works after such a link', async () => {
    const link = await server.app.inject({ method: 'GET', url: '/ui/api/auth/csrf' });
    const { csrf } = link.json() as { csrf: string };
    expect(link.headers['set-cookie']).toBe(`gateway_signin_csrf=${csrf}; Path=/ui/api/auth; Max-Age=3600; SameSite=Strict; HttpOnly`);
    const browser = await signedIn();
    browser.store(link);
    const out = await browser.send('DELETE', '/ui/api/auth');
    expect(out.json()).toEqual({ ok: true });
    expect((await browser.send('GET', '/ui/api/overview')).statusCode).toBe(401);
  });
});
