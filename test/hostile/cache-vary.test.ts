/**
 * The response cache and an upstream's `Vary` (RFC 9111 §4.1): a Proxy endpoint forwards the
 * client's headers (Accept-Language, custom headers, with ForwardCookies the Cookie), so an
 * upstream may answer each caller differently and say so only with `Vary` (Django's sessions add
 * `Vary: Cookie` and nothing else). Such an answer must never be replayed to another caller. The
 * key covers Accept; Accept-Encoding is always `identity` upstream; Origin is answered per request
 * by CORS: a `Vary` naming only those stays cacheable. Likewise an answer the upstream allows to be
 * used only after revalidation (`Cache-Control: no-cache`, `Pragma: no-cache`): the gateway never
 * revalidates, so it never stores one. With ForwardCookies, a request whose cookies go upstream is
 * neither looked up nor stored at all (the cookie is the caller's credential there; most session
 * middlewares say nothing about it in Vary).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from '../proxy/proxy-server.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../proxy/scripted-upstream.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let upstream: ScriptedUpstream;
let server: TestServer;

beforeAll(async () => {
  // the answer is the caller's own: its cookie, its language, its tenant header
  upstream = await startScriptedUpstream((req, res, url) => {
    const vary = url.searchParams.get('vary');
    const cc = url.searchParams.get('cc');
    res.writeHead(200, {
      'content-type': 'application/json',
      // as many upstreams do: the X-Request-Id the gateway sent, echoed
      'x-request-id': String(req.headers['x-request-id']),
      ...(vary ? { vary } : {}),
      ...(cc ? { 'cache-control': cc } : {}),
      ...(url.searchParams.has('pragma') ? { pragma: 'no-cache' } : {}),
    });
    res.end(JSON.stringify({ cookie: req.headers.cookie ?? null, language: req.headers['accept-language'] ?? null, tenant: req.headers['x-tenant'] ?? null, origin: req.headers.origin ?? null }));
  });
  server = await proxyServer([proxy('Session', { url: `${upstream.origin}/me`, forwardCookies: true }, ['GET'])], {}, { caching: true });
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

const get = (query: string, headers: Record<string, string>) => server.inject({ method: 'GET', url: `/api/demo/Session?${query}`, headers });

describe('an upstream answer that varies by a request header is never replayed to another caller', () => {
  it.each([
    ['Vary: Cookie (a session)', 'vary=Cookie', { cookie: 'session=alice' }, { cookie: 'session=bob' }],
    ['Vary: Accept-Language', 'vary=Accept-Language', { 'accept-language': 'nl' }, { 'accept-language': 'fr' }],
    ['Vary: a custom header, in a list', 'vary=Origin,%20X-Tenant', { 'x-tenant': 'a' }, { 'x-tenant': 'b' }],
    ['Vary: *', 'vary=*', { 'x-tenant': 'a' }, { 'x-tenant': 'b' }],
    // the gateway's CORS adds `Vary: Origin` to every answer, so the name alone cannot refuse it: the key holds a Proxy's Origin
    ['Vary: Origin (an upstream answering per origin, the Origin forwarded)', 'vary=Origin', { origin: 'https://a.example' }, { origin: 'https://b.example' }],
  ])('%s', async (_name, query, alice, bob) => {
    const first = await get(query, alice);
    const second = await get(query, bob);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).not.toEqual(first.json());
    expect(second.headers['x-cache']).not.toBe('HIT');
  });

  it.each([
    ['Cache-Control: no-cache (use only after revalidation, which the gateway never does)', 'cc=no-cache'],
    ['Cache-Control: no-cache="Set-Cookie", max-age=60', 'cc=no-cache%3D%22Set-Cookie%22%2C%20max-age%3D60'],
    ['Pragma: no-cache without Cache-Control', 'pragma=1'],
  ])('%s', async (_name, query) => {
    // two callers told apart by a header the key does not cover (a cookie would keep both out of the cache)
    const first = await get(query, { 'x-tenant': 'a' });
    const second = await get(query, { 'x-tenant': 'b' });
    expect(second.headers['x-cache']).toBe('MISS');
    expect(second.json()).not.toEqual(first.json());
  });

  it('ForwardCookies: an answer to a request whose cookies went upstream is never stored nor replayed, even without Vary', async () => {
    // most session middlewares add no `Vary: Cookie`: the cookie is the caller's credential upstream
    const alice = await get('plain=1', { cookie: 'session=alice' });
    const bob = await get('plain=1', { cookie: 'session=bob' });
    expect([alice.statusCode, bob.statusCode]).toEqual([200, 200]);
    expect((bob.json() as { cookie: string }).cookie).toBe('session=bob');
    expect([alice.headers['x-cache'], bob.headers['x-cache']]).toEqual([undefined, undefined]);
    // an answer to a request without cookies is shared, but never handed to a caller whose cookies go upstream
    const anonymous = await get('shared=1', {});
    expect([anonymous.headers['x-cache'], (await get('shared=1', {})).headers['x-cache']]).toEqual(['MISS', 'HIT']);
    const carol = await get('shared=1', { cookie: 'session=carol' });
    expect([carol.headers['x-cache'], (carol.json() as { cookie: string }).cookie]).toEqual([undefined, 'session=carol']);
    // the gateway's own cookies never go upstream: such a request shares the cookie-less entry
    expect((await get('shared=1', { cookie: 'gateway_csrf=x' })).headers['x-cache']).toBe('HIT');
  });

  it('a Vary naming only what the key or the gateway covers (Accept, Accept-Encoding, Origin) is still cached', async () => {
    const query = 'vary=Accept,%20accept-encoding,%20Origin';
    const first = await get(query, { 'x-tenant': 'a' });
    const second = await get(query, { 'x-tenant': 'a' });
    expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(second.json()).toEqual(first.json());
    // the first caller's request id, echoed by the upstream, is not replayed with the entry
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).toBeUndefined();
  });
});
