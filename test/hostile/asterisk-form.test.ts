/**
 * The asterisk form of a request target (`OPTIONS * HTTP/1.1`, RFC 9112 §3.2.4) is defined for
 * OPTIONS only: `OPTIONS *` answers 204 with the server's methods in `Allow` and no body, any other
 * method with `*` is a 400 with the spec's error body. Before, `GET *` was served the landing page
 * (200) and `OPTIONS *` answered 404 "Route 'OPTIONS *' not found".
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';
import { rawExchange } from './raw-exchange.js';

let server: TestServer;
let port: number;

beforeAll(async () => {
  // CORS on, so the preflight case shows `OPTIONS *` stays CORS-neutral (no browser sends `*`)
  server = await createTestServer({ generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Items' }] }, handlers: ECHO_HANDLERS, env: { Cors__AllowedOrigins: '*' } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => server?.close());

interface Answer {
  readonly status: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const JSON_BODY = 'Content-Type: application/json\r\nContent-Length: 2\r\n';

/** `<method> * HTTP/1.1` over a raw socket (no HTTP client writes that target); with a `{}` JSON body when asked. */
async function asterisk(method: string, withBody = false): Promise<Answer> {
  const request = `${method} * HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${server.token}\r\n${withBody ? JSON_BODY : ''}Connection: close\r\n\r\n`;
  const text = await rawExchange(port, withBody ? `${request}{}` : request);
  const [head = '', body = ''] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
  const [status = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status, headers, body };
}

it.each([
  ['GET', false],
  ['POST', true],
  ['PUT', true],
  ['PATCH', true],
  ['DELETE', false],
  ['MERGE', true],
  ['QUERY', true],
])('%s * is a 400 with the spec error body', async (method, withBody) => {
  const res = await asterisk(method, withBody);
  expect(res.status).toBe('HTTP/1.1 400 Bad Request');
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(JSON.parse(res.body)).toEqual({
    success: false,
    error: `Invalid request URL: '*' is only allowed as the target of OPTIONS (RFC 9112 section 3.2.4), not of ${method}.`,
  });
});

it('HEAD * is a 400 without a body', async () => {
  const res = await asterisk('HEAD');
  expect(res.status).toBe('HTTP/1.1 400 Bad Request');
  expect(res.body).toBe('');
});

it('OPTIONS * answers 204 with the server methods in Allow and no body', async () => {
  const res = await asterisk('OPTIONS');
  expect(res.status).toBe('HTTP/1.1 204 No Content');
  expect(res.headers['allow']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, MERGE, QUERY, OPTIONS');
  expect(res.body).toBe('');
});

it('OPTIONS * is the same 204 without a token and as a CORS preflight (no Access-Control headers)', async () => {
  const text = await rawExchange(port, 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\nOrigin: http://app.test\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n');
  expect(text.slice(0, text.indexOf('\r\n'))).toBe('HTTP/1.1 204 No Content');
  expect(text.toLowerCase()).toContain('\r\nallow: get, head, post, put, patch, delete, merge, query, options\r\n');
  expect(text.toLowerCase()).not.toContain('access-control-');
});

it('a preflight to a path still gets the CORS answer (the asterisk check touches only `*`)', async () => {
  const text = await rawExchange(port, 'OPTIONS /api/demo/Inventory/Items HTTP/1.1\r\nHost: localhost\r\nOrigin: http://app.test\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n');
  expect(text.slice(0, text.indexOf('\r\n'))).toBe('HTTP/1.1 204 No Content');
  expect(text.toLowerCase()).toContain('\r\naccess-control-allow-origin: *\r\n');
});

it('GET / is still the landing page', async () => {
  const text = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  expect(text.slice(0, text.indexOf('\r\n'))).toBe('HTTP/1.1 200 OK');
});
