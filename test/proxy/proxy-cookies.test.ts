/**
 * Cookies across a Proxy endpoint through the running server (issue 23 item 2): the console's
 * session cookies never reach an upstream and an upstream can never set them; other cookies cross
 * only with `ForwardCookies: true`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from './proxy-server.js';
import { startScriptedUpstream } from './scripted-upstream.js';
import type { ScriptedUpstream } from './scripted-upstream.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let upstream: ScriptedUpstream;
let server: TestServer;

const SET_COOKIES = [
  'gateway_auth=minted; Path=/; HttpOnly',
  'gateway_csrf=minted; Path=/',
  'GATEWAY_AUTH=minted; Path=/',
  '__Host-gateway_auth=minted; Path=/; Secure',
  'theme=light; Path=/',
];

beforeAll(async () => {
  upstream = await startScriptedUpstream((req, res) => {
    const body = JSON.stringify({ cookie: req.headers.cookie ?? null });
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': SET_COOKIES });
    res.end(body);
  });
  server = await proxyServer([
    proxy('Plain', { url: `${upstream.origin}/plain` }, ['GET']),
    proxy('WithCookies', { url: `${upstream.origin}/with`, forwardCookies: true }, ['GET']),
  ]);
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

const browserCookies = 'gateway_auth=SESSION-SECRET; theme=dark; gateway_csrf=CSRF-SECRET; GATEWAY_AUTH=x; lang=nl';

describe('Proxy cookies', () => {
  it('sends no Cookie upstream and passes no Set-Cookie back by default', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Plain', headers: { cookie: browserCookies } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ cookie: null });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('with ForwardCookies forwards other cookies but never the gateway session or CSRF cookie', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/WithCookies', headers: { cookie: browserCookies } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ cookie: 'theme=dark; lang=nl' });
    expect(res.body).not.toContain('SECRET');
  });

  it('with ForwardCookies passes the upstream Set-Cookie except for the gateway cookies', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/WithCookies' });
    expect(res.headers['set-cookie']).toEqual(['theme=light; Path=/']);
  });

  it('sends no Cookie header at all when only gateway cookies were sent', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/WithCookies', headers: { cookie: 'gateway_auth=S; gateway_csrf=C' } });
    expect(res.json()).toEqual({ cookie: null });
  });
});
