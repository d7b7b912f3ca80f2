/** HTTP tests of error answers: bad input is never a 500, internal errors carry a traceId in body and log. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointKind } from './contract/index.js';
import type { EndpointSpec } from './testing/generated-fixture.js';
import { ECHO_HANDLERS } from './testing/echo-handlers.js';
import { createTestServer } from './testing/test-server.js';
import type { TestServer } from './testing/test-server.js';

const ENDPOINTS: readonly EndpointSpec[] = [
  { kind: 'sql', routePath: 'Inventory/Items', methods: ['GET', 'POST', 'PUT', 'DELETE', 'QUERY'] },
  { kind: 'proxy', routePath: 'Shipping/Rates', methods: ['GET', 'POST'] },
  { kind: 'composite', routePath: 'Shipping/ShipOrder' },
  { kind: 'static', routePath: 'Content/Countries' },
  { kind: 'webhook', routePath: 'Hooks/Orders' },
  { kind: 'files', routePath: 'files/Documents' },
];

const JSON_HEADERS = { 'content-type': 'application/json' };
const INTERNAL = 'Error processing. Please check the logs for more details.';

describe('error answers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({
      generated: { endpoints: ENDPOINTS },
      // env override of the file setting, also the 413 limit below
      // (the 750 requests of 'no bad input answers 500' need a larger rate-limit budget)
      env: { Server__BodyLimitBytes: '4096', RateLimiting__IpLimit: '5000', RateLimiting__TokenLimit: '5000' },
      handlers: {
        ...ECHO_HANDLERS,
        proxy: () => {
          throw new Error('boom: upstream socket exploded');
        },
      },
    });
  });
  afterAll(async () => server.close());

  it.each([
    ['unterminated object', '{"a":', 'Invalid JSON body: Unexpected end of input at line 1, column 6.'],
    ['missing colon', '{"a" 1}', "Invalid JSON body: Expected ':' after property name at line 1, column 6."],
    ['trailing comma on line 3', '[\n1,\n2,]', "Invalid JSON body: Unexpected token ']' at line 3, column 3."],
    ['unquoted key', '{a:1}', "Invalid JSON body: Expected property name or '}' at line 1, column 2."],
    ['garbage after value', '{"a":1}}', 'Invalid JSON body: Unexpected non-whitespace character after JSON at line 1, column 8.'],
    ['prototype poisoning', '{"__proto__":{"admin":true}}', "Invalid JSON body: the key '__proto__' is not allowed."],
    ['constructor poisoning', '{"constructor":{"prototype":{"x":1}}}', "Invalid JSON body: the key 'constructor.prototype' is not allowed."],
    ['empty body', '', "Request body is empty but Content-Type is 'application/json'."],
    ['whitespace body', '  \n', "Request body is empty but Content-Type is 'application/json'."],
  ])('malformed JSON: %s -> 400', async (_name, payload, error) => {
    const response = await server.inject({ method: 'POST', url: '/api/demo/Inventory/Items', headers: JSON_HEADERS, payload });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ success: false, error });
  });

  it('body over Server:BodyLimitBytes -> 413', async () => {
    const payload = JSON.stringify({ data: 'x'.repeat(5000) });
    const response = await server.inject({ method: 'POST', url: '/api/demo/Inventory/Items', headers: JSON_HEADERS, payload });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ success: false, error: 'Request body is too large (limit 4096 bytes).' });
  });

  it('unparseable Content-Type -> 415', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/api/demo/Inventory/Items',
      headers: { 'content-type': 'not a media type' },
      payload: 'x',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ success: false, error: "Content-Type 'not a media type' is not supported." });
  });

  it('other content types reach the handler as raw bytes', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/api/demo/Inventory/Items',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().body).toEqual({ type: 'Buffer', data: [...Buffer.from('<a/>')] });
  });

  it('DELETE with a JSON Content-Type and no body is accepted', async () => {
    const response = await server.inject({ method: 'DELETE', url: '/api/demo/Inventory/Items/3', headers: JSON_HEADERS });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      endpoint: 'sql:Inventory/Items',
      target: { kind: 'item', id: '3' },
      env: 'demo',
      method: 'DELETE',
      body: null,
    });
  });

  it('no bad input answers 500', async () => {
    const bodies = ['{', '}', '[', 'null x', '"\\u12"', '\u0000', '{"a":1e999999}', 'NaN', '{"a":"\ud800"}', '[1,]'];
    const types = ['application/json', 'application/json; charset=latin1', 'text/plain', 'application/octet-stream', ';;;'];
    const urls = ['/api/demo/Inventory/Items', '/api/demo/Inventory/Items/%ff', '/api/%00/x', '/api/demo/Inventory/Items/a%2e', '/x/%'];
    const statuses = new Set<number>();
    for (const url of urls) {
      for (const type of types) {
        for (const payload of bodies) {
          for (const method of ['POST', 'QUERY', 'PUT'] as const) {
            const response = await server.inject({ method, url, headers: { 'content-type': type }, payload });
            statuses.add(response.statusCode);
            expect(response.statusCode, `${method} ${url} ${type} ${JSON.stringify(payload)}`).toBeLessThan(500);
            if (response.statusCode >= 400) expect(response.json()).toEqual({ success: false, error: expect.any(String) });
          }
        }
      }
    }
    expect([...statuses].sort()).toEqual([200, 400, 415]);
  });

  it('an internal error answers 500 with a traceId that the log carries with the stack', async () => {
    const response = await server.inject({ method: 'GET', url: '/api/demo/Shipping/Rates' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({ success: false, error: INTERNAL, traceId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(response.body).not.toContain('boom');
    const logged = server.logs.lines().find((line) => line['traceId'] === body.traceId);
    expect(logged?.['level']).toBe(50);
    const err = logged?.['err'] as { message: string; stack: string } | undefined;
    expect(err?.message).toBe('boom: upstream socket exploded');
    expect(err?.stack).toContain('server.errors.test.ts');
  });
});

describe('default handlers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ generated: { endpoints: ENDPOINTS } });
  });
  afterAll(async () => server.close());

  // Every kind has its real handler now (tested in test/sql, test/webhook, test/static, test/files,
  // test/proxy): the 501 placeholder answers no route of a built server.
  it.each([
    ['sql', 'GET', '/api/demo/Inventory/Items'],
    ['proxy', 'GET', '/api/demo/Shipping/Rates'],
    ['composite', 'POST', '/api/demo/Shipping/ShipOrder'],
    ['static', 'GET', '/api/demo/Content/Countries'],
    ['webhook', 'POST', '/api/demo/Hooks/Orders/order-created'],
    ['files', 'GET', '/api/demo/files/Documents/list'],
  ] as const)('%s has a real handler (no 501)', async (_kind: EndpointKind, method, url) => {
    const response = await server.inject({ method, url, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, payload: '{}' } : {}) });
    expect(response.statusCode).not.toBe(501);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });
});
