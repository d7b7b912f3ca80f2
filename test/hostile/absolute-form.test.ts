/**
 * A request target in absolute form (`GET http://host/path HTTP/1.1`, RFC 9112 §3.2.2: a server
 * must accept it) is answered as its origin form: before, the router took the scheme and authority
 * for path segments, so `GET HTTP://host/api/...` answered 400 "empty segment".
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';
import { rawExchange } from './raw-exchange.js';

let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await createTestServer({ generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Items' }] }, handlers: ECHO_HANDLERS });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => server?.close());

/** One request over a raw socket (the target as written), its status line and body. */
async function get(target: string): Promise<{ status: string; body: string }> {
  const text = await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${server.token}\r\nConnection: close\r\n\r\n`);
  return { status: text.slice(0, text.indexOf('\r\n')), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

it.each([
  ['HTTP://other.test:81/api/demo/Inventory/Items?$top=1', '/api/demo/Inventory/Items?$top=1'],
  ['http://localhost/API/demo/Inventory/Items/7', '/api/demo/Inventory/Items/7'],
  ['https://user:pw@localhost/health/live', '/health/live'],
])('%s is answered as %s', async (absolute, origin) => {
  const [a, b] = [await get(absolute), await get(origin)];
  expect(b.status).toBe('HTTP/1.1 200 OK');
  expect(a).toEqual(b);
});
