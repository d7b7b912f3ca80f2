/**
 * Time and concurrency limits through the running server, each answered in the project's error
 * body: a body that announces more than it sends (408), a handler that does not answer (503), more
 * requests in flight than Server:MaxConcurrentRequests (503 with Retry-After).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointSpec } from '../../runtime/testing/generated-fixture.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';

const ENDPOINTS: readonly EndpointSpec[] = [
  { kind: 'sql', routePath: 'Inventory/Items', methods: ['GET', 'POST'] },
  { kind: 'proxy', routePath: 'Slow/Upstream', methods: ['GET'] },
];

let server: TestServer;
let base: { host: string; port: number };
const hanging: (() => void)[] = [];

beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: ENDPOINTS },
    env: {
      Server__BodyTimeoutSeconds: '1',
      Server__MinBodyBytesPerSecond: '0',
      Server__HandlerTimeoutSeconds: '2',
      Server__MaxConcurrentRequests: '2',
    },
    handlers: {
      ...ECHO_HANDLERS,
      // never answers on its own: the handler timeout ends it
      proxy: () => new Promise((resolve) => hanging.push(() => resolve({ late: true }))),
    },
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  base = { host: '127.0.0.1', port: typeof address === 'object' && address ? address.port : 0 };
});

afterAll(async () => {
  for (const release of hanging) release();
  await server.close();
});

/**
 * Writes `raw` on a new connection, then each of `trickle` 300 ms apart, and returns everything the
 * server sent until it closed.
 */
function rawExchange(raw: string, to = base, trickle: readonly string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(to);
    let text = '';
    const timers: NodeJS.Timeout[] = [];
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => {
      for (const t of timers) clearTimeout(t);
      resolve(text);
    });
    socket.on('error', reject);
    socket.write(raw);
    trickle.forEach((part, i) => timers.push(setTimeout(() => socket.writable && socket.write(part), 300 * (i + 1))));
    setTimeout(() => socket.destroy(new Error(`no close within 10 s; got: ${text}`)), 10_000).unref();
  });
}

function postHead(token: string, host: string, contentLength: number): string {
  return [
    'POST /api/demo/Inventory/Items HTTP/1.1',
    `Host: ${host}`,
    `Authorization: Bearer ${token}`,
    'Content-Type: application/json',
    `Content-Length: ${contentLength}`,
    '',
    '',
  ].join('\r\n');
}

describe('limits', () => {
  it('a body that announces more than it sends ends with 408 in the project format and the connection closes', async () => {
    const answer = await rawExchange(`${postHead(server.token, base.host, 100)}{"a":1`);
    const [headers = '', body] = answer.split('\r\n\r\n');
    expect(headers).toMatch(/^HTTP\/1\.1 408 /);
    expect(headers.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body ?? '')).toEqual({ success: false, error: 'The request body did not arrive in time.' });
  });

  it('a handler that does not answer within Server:HandlerTimeoutSeconds gets 503', async () => {
    const response = await server.inject({ method: 'GET', url: '/api/demo/Slow/Upstream' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ success: false, error: 'The request did not complete in time.' });
  });

  it('more requests in flight than Server:MaxConcurrentRequests get 503 with Retry-After', async () => {
    const first = server.inject({ method: 'GET', url: '/api/demo/Slow/Upstream' });
    const second = server.inject({ method: 'GET', url: '/api/demo/Slow/Upstream' });
    await new Promise((r) => setTimeout(r, 100));
    const third = await server.inject({ method: 'GET', url: '/api/demo/Inventory/Items' });
    expect(third.statusCode).toBe(503);
    expect(third.headers['retry-after']).toBe('1');
    expect(third.json()).toEqual({ success: false, error: 'Too many requests in progress. Retry shortly.' });
    expect([(await first).statusCode, (await second).statusCode]).toEqual([503, 503]);
    // the slots are free again
    expect((await server.inject({ method: 'GET', url: '/api/demo/Inventory/Items' })).statusCode).toBe(200);
  });
});

describe('minimum body transfer rate', () => {
  it('a body that keeps trickling below Server:MinBodyBytesPerSecond after the grace time ends with 408', async () => {
    const slow = await createTestServer({
      generated: { endpoints: ENDPOINTS },
      env: { Server__BodyTimeoutSeconds: '1', Server__MinBodyBytesPerSecond: '1000' },
      handlers: ECHO_HANDLERS,
    });
    try {
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const address = slow.app.server.address();
      const to = { host: '127.0.0.1', port: typeof address === 'object' && address ? address.port : 0 };
      // 2 bytes every 300 ms: far below 1000 bytes/s, but never idle
      const parts = Array.from({ length: 20 }, () => '  ');
      const answer = await rawExchange(`${postHead(slow.token, to.host, 100)}{`, to, parts);
      const [headers = '', body] = answer.split('\r\n\r\n');
      expect(headers).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(body ?? '')).toEqual({ success: false, error: 'The request body did not arrive in time.' });
    } finally {
      await slow.close();
    }
  });
});
