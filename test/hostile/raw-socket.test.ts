/**
 * Requests Node's HTTP parser refuses before fastify sees them, sent byte for byte over a raw
 * socket to a listening server: every answer is the spec's error body from the one registry,
 * with Connection: close (issue 18 item 3). A keep-alive client's next request is not lost into
 * a reset: the server closes after answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Send raw bytes, collect everything until the server closes (bounded by 5 s). */
const raw = (bytes: string | Buffer): Promise<string> => rawExchange(port, bytes);

function parse(response: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, body = ''] = response.split('\r\n\r\n');
  const [statusLine, ...lines] = (head as string).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number((statusLine as string).split(' ')[1]), headers, body: JSON.parse(body) };
}

const H = 'Host: localhost\r\nAuthorization: Bearer x\r\n';
const cases: Array<[string, string | Buffer, number, string]> = [
  ['headers over 16 KB', `GET /api/demo/Inventory/Items HTTP/1.1\r\n${H}X-Big: ${'a'.repeat(17_000)}\r\n\r\n`, 431, `Request line and headers are too large (limit 16384 bytes).`],
  ['URL over 16 KB', `GET /api/demo/Inventory/Items?x=${'a'.repeat(17_000)} HTTP/1.1\r\n${H}\r\n`, 431, 'Request line and headers are too large (limit 16384 bytes).'],
  ['raw UTF-8 in the path', Buffer.concat([Buffer.from('GET /api/demo/Inv\u00e9ntory HTTP/1.1\r\n', 'utf8'), Buffer.from(`${H}\r\n`)]), 400, 'Malformed HTTP request: the request target contains characters that are not allowed (encode them).'],
  ['CR inside a header value', `GET /api/demo/Inventory/Items HTTP/1.1\r\n${H}X-A: a\rb\r\n\r\n`, 400, 'Malformed HTTP request: bad line ending (CR without LF, or LF without CR).'],
  ['obs-fold', `GET /api/demo/Inventory/Items HTTP/1.1\r\n${H}X-A: a\r\n  folded\r\n\r\n`, 400, 'Malformed HTTP request: a header contains a character that is not allowed (obsolete line folding included).'],
  ['Transfer-Encoding with Content-Length', `POST /api/demo/Inventory/Items HTTP/1.1\r\n${H}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400, 'Malformed HTTP request: invalid Transfer-Encoding (only chunked, and never together with Content-Length).'],
  ['unknown method', `FROB /api/demo/Inventory/Items HTTP/1.1\r\n${H}\r\n`, 400, 'Malformed HTTP request: unknown HTTP method.'],
  ['bad Content-Length', `POST /api/demo/Inventory/Items HTTP/1.1\r\n${H}Content-Length: 1x\r\n\r\n`, 400, 'Malformed HTTP request: invalid Content-Length.'],
  ['not HTTP at all', 'hello\r\n\r\n', 400, 'Malformed HTTP request: unknown HTTP method.'],
  ['HTTP/1.1 without Host', 'GET /api/demo/Inventory/Items HTTP/1.1\r\nAuthorization: Bearer x\r\n\r\n', 400, 'Malformed HTTP request: the Host header is missing (HTTP/1.1 requires it).'],
  ['HTTP/1.1 without Host, to a route that is not the API', 'GET /health/live HTTP/1.1\r\n\r\n', 400, 'Malformed HTTP request: the Host header is missing (HTTP/1.1 requires it).'],
  ['Content-Length twice (request smuggling)', `POST /api/demo/Inventory/Items HTTP/1.1\r\n${H}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{} `, 400, 'Malformed HTTP request: Content-Length must be sent once, and never together with Transfer-Encoding.'],
  // Node drops a CONNECT nobody listens for without a word
  ['CONNECT to an address (a forward-proxy tunnel)', `CONNECT 127.0.0.1:5432 HTTP/1.1\r\n${H}\r\n`, 400, 'CONNECT is not supported: this server is not a forward proxy.'],
  ['CONNECT to an API path', `CONNECT /api/demo/Inventory/Items HTTP/1.1\r\n${H}\r\n`, 400, 'CONNECT is not supported: this server is not a forward proxy.'],
];

describe('requests the HTTP parser refuses', () => {
  it.each(cases)('%s', async (_name, bytes, status, error) => {
    const res = parse(await raw(bytes));
    expect(res.status).toBe(status);
    expect(res.headers['connection']).toBe('close');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ success: false, error });
  });

  it('logs the refusal without the URL', async () => {
    await raw(`GET /api/demo/Inventory/Items?access_token=whf_secret HTTP/1.1\r\n${H}X-Big: ${'a'.repeat(17_000)}\r\n\r\n`);
    const line = server.logs.lines().find((l) => l['event'] === 'http.client_error' && l['status'] === 431);
    expect(line).toMatchObject({ code: 'HPE_HEADER_OVERFLOW' });
    expect(server.logs.text()).not.toContain('whf_secret');
  });
});
