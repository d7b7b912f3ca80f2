/** ResponseTransforms and response caching of Proxy endpoints through the running server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from './proxy-server.js';
import { startUpstream } from './upstream-server.js';
import type { Upstream } from './upstream-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let upstream: Upstream;
let server: TestServer;
const transforms = { remove: ['password'], rename: { cost: 'price' }, mask: ['card'] };

beforeAll(async () => {
  upstream = await startUpstream();
  const o = upstream.origin;
  server = await proxyServer(
    [
      proxy('Secret', { url: `${o}/secret`, responseTransforms: transforms }, ['GET']),
      proxy('PlainText', { url: `${o}/stream`, responseTransforms: transforms }, ['GET']),
      proxy('Cached', { url: `${o}/echo/cached` }, ['GET', 'QUERY', 'POST']),
      proxy('NoStore', { url: `${o}/nostore` }, ['GET']),
    ],
    {},
    { caching: true },
  );
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

describe('ResponseTransforms', () => {
  it('applies Remove, Rename and Mask to JSON (value wrapper) and fixes Content-Length', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Secret' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ value: [{ id: 1, card: '***', price: 3 }, { id: 2, card: '***', price: 4 }] });
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  });

  it('passes non-JSON bodies untouched', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/PlainText?chunks=2&delay=1' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(2 * 64 * 1024);
  });
});

describe('caching', () => {
  it('caches GET per path and query; a write invalidates the endpoint', async () => {
    const first = await server.inject({ method: 'GET', url: '/api/demo/Cached/a?x=1' });
    const second = await server.inject({ method: 'GET', url: '/api/demo/Cached/a?x=1' });
    const other = await server.inject({ method: 'GET', url: '/api/demo/Cached/b?x=1' });
    expect([first.headers['x-cache'], second.headers['x-cache'], other.headers['x-cache']]).toEqual(['MISS', 'HIT', 'MISS']);
    expect(second.body).toBe(first.body);
    expect(upstream.hits.get('/echo/cached/a')).toBe(1);
    const write = await server.inject({ method: 'POST', url: '/api/demo/Cached', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(write.statusCode).toBe(200);
    const after = await server.inject({ method: 'GET', url: '/api/demo/Cached/a?x=1' });
    expect(after.headers['x-cache']).toBe('MISS');
    expect(upstream.hits.get('/echo/cached/a')).toBe(2);
  });

  it('keys QUERY on its body', async () => {
    const query = (filter: string) =>
      server.inject({ method: 'QUERY', url: '/api/demo/Cached/q', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ filter }) });
    const a1 = await query('a');
    const b1 = await query('b');
    const a2 = await query('a');
    expect([a1.headers['x-cache'], b1.headers['x-cache'], a2.headers['x-cache']]).toEqual(['MISS', 'MISS', 'HIT']);
    expect((a2.json() as { body: string }).body).toBe('{"filter":"a"}');
  });

  it('honours upstream Cache-Control: no-store', async () => {
    const first = await server.inject({ method: 'GET', url: '/api/demo/NoStore' });
    const second = await server.inject({ method: 'GET', url: '/api/demo/NoStore' });
    expect(first.json()).toEqual({ n: 1 });
    expect(second.json()).toEqual({ n: 2 });
  });
});
