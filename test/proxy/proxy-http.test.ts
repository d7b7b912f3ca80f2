/** Proxy forwarding through the running server against a real loopback upstream. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from './proxy-server.js';
import { startUpstream } from './upstream-server.js';
import type { Upstream } from './upstream-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let upstream: Upstream;
let server: TestServer;

beforeAll(async () => {
  upstream = await startUpstream();
  const o = upstream.origin;
  server = await proxyServer([
    proxy('Echo', { url: `${o}/echo/base?fixed=1` }, ['GET', 'POST', 'PUT', 'DELETE', 'QUERY', 'PATCH']),
    proxy('Shop/Orders', { url: `${o}/echo/orders`, deletePatterns: [{ style: 'QueryParameter', parameter: 'orderId' }] }, ['GET', 'DELETE']),
    proxy('Guid', { url: `${o}/echo/odata/Items`, deletePatterns: [{ style: 'ODataGuid', parameter: null }] }, ['DELETE']),
    proxy('Key', { url: `${o}/echo/odata/Items`, deletePatterns: [{ style: 'ODataKey', parameter: null }] }, ['DELETE']),
    proxy('Translated', {
      url: `${o}/echo/t`,
      methodTranslation: { PUT: 'POST', MERGE: 'PATCH' },
      appendHeaders: [{ method: 'PUT', header: 'X-HTTP-Method', value: '{ORIGINAL_METHOD}' }, { method: 'MERGE', header: 'X-Was', value: 'was-{ORIGINAL_METHOD}' }],
      contentType: 'application/xml',
    }, ['PUT', 'MERGE', 'GET']),
    proxy('Status', { url: `${o}/status` }, ['GET']),
    proxy('Short', { url: `${o}/short` }, ['GET']),
    proxy('Stream', { url: `${o}/stream` }, ['GET']),
    proxy('Links', { url: `${o}/links` }, ['GET']),
    proxy('RawLinks', { url: `${o}/links`, rewriteUrls: false }, ['GET']),
    proxy('Redirect', { url: `${o}/redirect` }, ['GET']),
  ], {}, { environments: { demo: { Provider: 'embedded', Headers: { 'X-Api-Key': 'env-secret' } } } });
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

interface Echo {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

describe('Proxy forwarding', () => {
  it('forwards headers without the client Authorization, hop-by-hop or forged forwarding headers', async () => {
    const res = await server.inject({
      method: 'GET',
      url: '/api/demo/Echo',
      headers: {
        'x-custom': 'kept',
        'x-forwarded-for': '6.6.6.6',
        'x-real-ip': '6.6.6.6',
        forwarded: 'for=6.6.6.6',
        'proxy-authorization': 'Basic x',
        connection: 'keep-alive, x-drop-me',
        'x-drop-me': 'hop',
        te: 'trailers',
        expect: '100-continue',
      },
    });
    expect(res.statusCode).toBe(200);
    const echo = res.json() as Echo;
    expect(echo.headers['authorization']).toBeUndefined();
    expect(JSON.stringify(echo.headers)).not.toContain(server.token);
    expect(echo.headers['x-custom']).toBe('kept');
    expect(echo.headers['x-drop-me']).toBeUndefined();
    expect(echo.headers['proxy-authorization']).toBeUndefined();
    expect(echo.headers['x-real-ip']).toBeUndefined();
    expect(echo.headers['forwarded']).toBeUndefined();
    expect(echo.headers['te']).toBeUndefined();
    expect(echo.headers['expect']).toBeUndefined();
    expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(echo.headers['x-forwarded-proto']).toBe('http');
    expect(echo.headers['x-forwarded-host']).toBeUndefined(); // only from Proxy:PublicBaseUrl, never the client's Host
    expect(echo.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(echo.headers['x-api-key']).toBe('env-secret');
    expect(echo.headers['accept']).toBe('application/json');
    expect(echo.headers['host']).toBe(upstream.origin.slice('http://'.length));
  });

  it('withholds httpoxy Proxy and client-address headers in any spelling', async () => {
    const forged = {
      proxy: 'http://evil.example:8080',
      x_forwarded_for: '6.6.6.6',
      x_forwarded_host: 'evil.example',
      'X-Forwarded_Proto': 'https',
      x_real_ip: '6.6.6.6',
      'true-client-ip': '6.6.6.6',
      'cf-connecting-ip': '6.6.6.6',
      'x-client-ip': '6.6.6.6',
      proxy_authorization: 'Basic x',
    };
    const res = await server.inject({ method: 'GET', url: '/api/demo/Echo', headers: { ...forged, 'x-custom': 'kept' } });
    const echo = res.json() as Echo;
    for (const name of Object.keys(forged)) expect(echo.headers[name.toLowerCase()], name).toBeUndefined();
    expect(JSON.stringify(echo.headers)).not.toMatch(/6\.6\.6\.6|evil\.example/);
    expect(echo.headers['x-custom']).toBe('kept');
    expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('keeps a baked parameter against case, ; and encoded variants', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Echo?FIXED=2&Fixed=3&x=1;fixed=4&%66ixed=5&y=2' });
    expect((res.json() as Echo).query).toBe('?fixed=1&y=2');
  });

  it('appends sub-paths, forwards the query string and keeps baked parameters on collision', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Echo/a%20b/c?x=1&fixed=2&$filter=Name%20eq%20%27x%27' });
    const echo = res.json() as Echo;
    expect(echo.path).toBe('/echo/base/a%20b/c');
    expect(echo.query).toBe("?fixed=1&x=1&$filter=Name%20eq%20%27x%27");
  });

  it('refuses a sub-path that would climb above Url', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Echo/x%2F..%2F..%2Fsecret' });
    expect(res.statusCode, res.body).toBe(400);
    expect(upstream.hits.get('/secret')).toBeUndefined();
  });

  it('forwards POST and QUERY bodies byte for byte', async () => {
    const raw = '{"b": 1.0,  "a":[1,2]}';
    for (const method of ['POST', 'QUERY'] as const) {
      const res = await server.inject({ method, url: '/api/demo/Echo', headers: { 'content-type': 'application/json' }, payload: raw });
      const echo = res.json() as Echo;
      expect(echo.method).toBe(method);
      expect(echo.body).toBe(raw);
      expect(echo.headers['content-type']).toBe('application/json');
    }
    const text = await server.inject({ method: 'PUT', url: '/api/demo/Echo/7', headers: { 'content-type': 'text/plain' }, payload: 'plain words' });
    expect((text.json() as Echo).body).toBe('plain words');
    expect((text.json() as Echo).path).toBe('/echo/base/7');
  });

  it('answers 405 with Allow for a method outside Methods', async () => {
    const res = await server.inject({ method: 'POST', url: '/api/demo/Status/200' });
    expect(res.statusCode).toBe(405);
    expect(res.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(res.json()).toEqual({ success: false, error: "Method 'POST' is not allowed for this endpoint." });
  });

  it('passes upstream status, headers and body through (4xx included)', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Status/418' });
    expect(res.statusCode).toBe(418);
    expect(res.json()).toEqual({ upstream: 'status' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('forwards DELETE ids per DeletePattern, URL-encoded', async () => {
    const query = await server.inject({ method: 'DELETE', url: '/api/demo/Shop/Orders/a%2Fb%26c' });
    expect(query.statusCode).toBe(400); // encoded '/' never reaches a handler
    const byQuery = (await server.inject({ method: 'DELETE', url: '/api/demo/Shop/Orders/a&b' })).json() as Echo;
    expect(byQuery.path).toBe('/echo/orders');
    expect(byQuery.query).toBe('?orderId=a%26b');
    const guid = 'A1B2C3D4-0000-1111-2222-333344445555';
    const byGuid = (await server.inject({ method: 'DELETE', url: `/api/demo/Guid/${guid}` })).json() as Echo;
    expect(decodeURIComponent(byGuid.path)).toBe(`/echo/odata/Items(guid'${guid.toLowerCase()}')`);
    const notGuid = await server.inject({ method: 'DELETE', url: '/api/demo/Guid/12' });
    expect(notGuid.statusCode).toBe(400);
    expect(notGuid.json()).toEqual({ success: false, error: "'12' is not a GUID; this endpoint deletes by ODataGuid." });
    const byKey = (await server.inject({ method: 'DELETE', url: "/api/demo/Key/it's" })).json() as Echo;
    expect(byKey.path).toBe('/echo/odata/Items(it%27s)');
    const byPath = (await server.inject({ method: 'DELETE', url: '/api/demo/Echo/42' })).json() as Echo;
    expect(byPath.path).toBe('/echo/base/42');
  });

  it('translates methods and appends headers with {ORIGINAL_METHOD}; ContentType sets Content-Type and Accept', async () => {
    const put = (await server.inject({ method: 'PUT', url: '/api/demo/Translated', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' })).json() as Echo;
    expect(put.method).toBe('POST');
    expect(put.headers['x-http-method']).toBe('PUT');
    expect(put.headers['content-type']).toBe('application/xml');
    expect(put.headers['accept']).toBe('application/xml');
    const merge = (await server.inject({ method: 'MERGE', url: '/api/demo/Translated', headers: { 'content-type': 'application/json' }, payload: '{}' })).json() as Echo;
    expect(merge.method).toBe('PATCH');
    expect(merge.headers['x-was']).toBe('was-MERGE');
    const get = (await server.inject({ method: 'GET', url: '/api/demo/Translated', headers: { accept: 'text/csv' } })).json() as Echo;
    expect(get.method).toBe('GET');
    expect(get.headers['x-http-method']).toBeUndefined();
    expect(get.headers['accept']).toBe('text/csv');
  });

  it('rewrites absolute upstream URLs in JSON bodies to the gateway route', async () => {
    // relative without Proxy:PublicBaseUrl: the client's Host is never trusted (proxy-public-base-url.test.ts)
    const res = await server.inject({ method: 'GET', url: '/api/demo/Links', headers: { host: 'gw.example' } });
    expect(res.json()).toEqual({
      '@odata.nextLink': '/api/demo/Links?$skip=2',
      value: [{ '@odata.id': '/api/demo/Links(1)', id: 1 }],
      other: 'http://elsewhere.example/links',
    });
  });

  it('leaves bodies untouched with RewriteUrls false', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/RawLinks', headers: { host: 'gw.example' } });
    expect((res.json() as Record<string, unknown>)['@odata.nextLink']).toBe(`${upstream.origin}/links?$skip=2`);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
  });

  it('never follows a redirect; a Location outside Url passes unchanged', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Redirect', headers: { host: 'gw.example' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers['location']).toBe(`${upstream.origin}/echo/target`);
    expect(upstream.hits.get('/echo/target')).toBeUndefined();
  });

  it.each([204, 304])('passes a bodiless %i through', async (status) => {
    const res = await server.inject({ method: 'GET', url: `/api/demo/Status/${status}` });
    expect(res.statusCode).toBe(status);
    expect(res.body).toBe('');
  });

  it('answers 502 with traceId when the upstream body breaks before Wharf sent anything', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Short' });
    expect(res.statusCode).toBe(502);
    const body = res.json() as { traceId: string };
    expect(body).toEqual({ success: false, error: 'The upstream service is unavailable.', traceId: body.traceId });
  });

  it('HEAD is forwarded as HEAD and answers without a body', async () => {
    const res = await server.inject({ method: 'HEAD', url: '/api/demo/Status/200' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });
});
