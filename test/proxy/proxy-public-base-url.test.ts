/**
 * Links a Proxy response carries never come from the client's Host (issue 23 item 3): the
 * response cache does not key on Host, so one request with `Host: attacker.example` would hand
 * every later caller links (and their bearer token) to the attacker. Rewritten links are relative,
 * or built from Proxy:PublicBaseUrl; upstreams get X-Forwarded-Host only from that setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from './proxy-server.js';
import { startUpstream } from './upstream-server.js';
import type { Upstream } from './upstream-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let upstream: Upstream;
let relative: TestServer;
let configured: TestServer;

beforeAll(async () => {
  upstream = await startUpstream();
  const endpoints = [proxy('Links', { url: `${upstream.origin}/links` }, ['GET']), proxy('Echo', { url: `${upstream.origin}/echo/e` }, ['GET'])];
  relative = await proxyServer(endpoints, {}, { caching: true });
  configured = await proxyServer(endpoints, { PublicBaseUrl: 'https://api.example.com/gw/' }, { caching: true });
});

afterAll(async () => {
  await relative.close();
  await configured.close();
  await upstream.close();
});

const attacker = { host: 'attacker.example' };

describe('Proxy links and the Host header', () => {
  it('a second caller never sees the first caller’s Host in rewritten links', async () => {
    const first = await relative.inject({ method: 'GET', url: '/api/demo/Links', headers: attacker });
    const second = await relative.inject({ method: 'GET', url: '/api/demo/Links' });
    expect(second.headers['x-cache']).toBe('HIT');
    for (const res of [first, second]) {
      expect(res.body).not.toContain('attacker.example');
      expect(res.json()).toEqual({
        '@odata.nextLink': '/api/demo/Links?$skip=2',
        value: [{ '@odata.id': '/api/demo/Links(1)', id: 1 }],
        other: 'http://elsewhere.example/links',
      });
    }
  });

  it('a second caller never sees the first caller’s Host through what the upstream was told', async () => {
    const first = await relative.inject({ method: 'GET', url: '/api/demo/Echo', headers: attacker });
    const second = await relative.inject({ method: 'GET', url: '/api/demo/Echo' });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(first.body).not.toContain('attacker.example');
    expect(second.body).not.toContain('attacker.example');
    expect((first.json() as { headers: Record<string, string> }).headers['x-forwarded-host']).toBeUndefined();
  });

  it('builds absolute links and X-Forwarded-Host/-Proto from Proxy:PublicBaseUrl', async () => {
    const res = await configured.inject({ method: 'GET', url: '/api/demo/Links', headers: attacker });
    expect(res.json()).toEqual({
      '@odata.nextLink': 'https://api.example.com/gw/api/demo/Links?$skip=2',
      value: [{ '@odata.id': 'https://api.example.com/gw/api/demo/Links(1)', id: 1 }],
      other: 'http://elsewhere.example/links',
    });
    const echo = (await configured.inject({ method: 'GET', url: '/api/demo/Echo', headers: attacker })).json() as { headers: Record<string, string> };
    expect(echo.headers['x-forwarded-host']).toBe('api.example.com');
    expect(echo.headers['x-forwarded-proto']).toBe('https');
  });
});
