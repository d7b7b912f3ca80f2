/**
 * Settings that cut the administrator off the console were saved: `WebUi:SecureCookies` true while
 * the console is reached over plain HTTP on a host other than loopback (live at once: the session
 * cookies carry Secure and the browser never sends them back), and a `RateLimiting:IpLimit` (or `IpWindow`, or `Enabled` with a
 * low limit saved earlier) so low that the console's own requests are throttled. Now each is 400
 * naming the key and why, and nothing is saved (the overrides file and the live settings unchanged).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] } });
});
afterAll(() => server.close());

const put = (payload: Record<string, unknown>, headers: Record<string, string> = {}) => server.inject({ method: 'PUT', url: '/ui/api/settings', payload, headers });
const saved = () => {
  const file = path.join(server.project.environmentsDir, 'settings.overrides.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : null;
};
const secureCookies = async () =>
  ((await server.inject({ method: 'GET', url: '/ui/api/settings' })).json() as { security: { secure_cookies: boolean } }).security.secure_cookies;

/** A console page opened over plain HTTP on the local network. */
const LAN = { origin: 'http://192.168.1.20:8080' };

describe('WebUi:SecureCookies over plain HTTP', () => {
  it('is 400 naming the key, nothing saved, cookies unchanged', async () => {
    const before = saved();
    const response = await put({ 'Logging:MinLevel': 'warn', 'WebUi:SecureCookies': true }, LAN);
    expect(response.json()).toEqual({
      error: "Saving 'WebUi:SecureCookies' would lock you out of the console: this request comes over plain HTTP (http://192.168.1.20:8080), and a browser never sends a Secure cookie back over HTTP",
      field: 'WebUi:SecureCookies',
    });
    expect(response.statusCode).toBe(400);
    expect(saved()).toEqual(before);
    expect(await secureCookies()).toBe(false);
    expect(server.app.log.level).not.toBe('warn');
  });

  it('without an Origin, the connection and Host decide', async () => {
    const response = await put({ 'WebUi:SecureCookies': true }, { host: 'gateway.lan:8080' });
    expect(response.statusCode).toBe(400);
    expect((response.json() as { error: string }).error).toContain('(http://gateway.lan:8080)');
  });

  it.each([['https://console.example.com'], ['http://localhost:8080'], ['http://127.0.0.1:8080'], ['http://[::1]:8080']])(
    'from %s (HTTPS, e.g. behind a TLS proxy, or loopback, where browsers keep Secure cookies) it is saved; false always is',
    async (origin) => {
      expect((await put({ 'WebUi:SecureCookies': true }, { origin })).statusCode).toBe(200);
      expect(await secureCookies()).toBe(true);
      expect((await put({ 'WebUi:SecureCookies': false }, LAN)).statusCode).toBe(200);
      expect(await secureCookies()).toBe(false);
    },
  );
});

describe('a per-IP budget too small for the console (it counts against RateLimiting:IpLimit per IpWindow)', () => {
  it.each([
    [{ 'RateLimiting:IpLimit': 5 }, 'RateLimiting:IpLimit', '5 requests per 60 seconds'],
    [{ 'RateLimiting:IpWindow': 3600 }, 'RateLimiting:IpWindow', '100 requests per 3600 seconds'],
    [{ 'RateLimiting:IpLimit': 29, 'RateLimiting:IpWindow': 1 }, 'RateLimiting:IpLimit', '29 requests per 1 seconds'],
  ])('%j is 400 naming %s, nothing saved', async (payload, field, budget) => {
    const before = saved();
    const response = await put(payload);
    expect(response.json()).toEqual({
      error: `Saving '${field}' would lock you out of the console: the console counts against the per-IP budget, and ${budget} is below the 30 per window and per minute it needs`,
      field,
    });
    expect(response.statusCode).toBe(400);
    expect(saved()).toEqual(before);
  });

  it('enough for the console, or with rate limiting off, is saved; turning it on with a low limit saved earlier is 400', async () => {
    expect((await put({ 'RateLimiting:IpLimit': 30 })).statusCode).toBe(200);
    expect((await put({ 'RateLimiting:IpLimit': 1800, 'RateLimiting:IpWindow': 3600 })).statusCode).toBe(200);
    expect((await put({ 'RateLimiting:Enabled': false, 'RateLimiting:IpLimit': 5 })).statusCode).toBe(200);
    const before = saved();
    const on = await put({ 'RateLimiting:Enabled': true });
    expect(on.json()).toEqual({
      error: "Saving 'RateLimiting:Enabled' would lock you out of the console: the console counts against the per-IP budget, and 5 requests per 3600 seconds is below the 30 per window and per minute it needs",
      field: 'RateLimiting:Enabled',
    });
    expect(on.statusCode).toBe(400);
    expect(saved()).toEqual(before);
  });
});
