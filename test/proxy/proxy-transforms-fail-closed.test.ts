/**
 * ResponseTransforms on Proxy endpoints fail closed (issue 23 item 8): the upstream is asked for
 * JSON whatever the client accepts, JSON in any usual spelling is transformed, and a body that
 * cannot be transformed answers 502 instead of passing the masked or removed field.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from './proxy-server.js';
import { startScriptedUpstream } from './scripted-upstream.js';
import type { ScriptedUpstream } from './scripted-upstream.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let upstream: ScriptedUpstream;
let server: TestServer;
const transforms = { remove: ['password'], rename: {}, mask: ['card'] };
const ROW = { id: 1, password: 'hunter2', card: '4111' };
const SHAPED = { id: 1, card: '***' };

/** Answers per path; /negotiate honours Accept like a content-negotiating framework. */
const BODIES: Record<string, (accept: string) => [string, string | Buffer, Record<string, string>?]> = {
  '/negotiate': (accept) =>
    accept.includes('xml')
      ? ['application/xml', '<row><id>1</id><password>hunter2</password><card>4111</card></row>']
      : accept.includes('text/plain')
        ? ['text/plain', 'id=1 password=hunter2 card=4111']
        : ['application/json', JSON.stringify(ROW)],
  '/bom': () => ['application/json; charset=utf-8', '\uFEFF' + JSON.stringify(ROW)],
  '/text-json': () => ['text/json', JSON.stringify(ROW)],
  '/mislabelled': () => ['text/plain', JSON.stringify({ value: [ROW] })],
  '/nan': () => ['application/json', '{"id":1,"password":"hunter2","card":"4111","score":NaN}'],
  '/xml-only': () => ['application/xml', '<row><id>1</id><Password>hunter2</Password></row>'],
  '/xml-harmless': () => ['application/xml', '<row><id>1</id></row>'],
  '/gzip': () => ['application/json', gzipSync(JSON.stringify(ROW)), { 'content-encoding': 'gzip' }],
};

beforeAll(async () => {
  upstream = await startScriptedUpstream((req, res, url) => {
    const [type, body, extra] = BODIES[url.pathname]!(String(req.headers.accept ?? ''));
    res.writeHead(200, { 'content-type': type, 'x-accept-seen': String(req.headers.accept ?? ''), ...extra });
    res.end(body);
  });
  server = await proxyServer(Object.keys(BODIES).map((path) => proxy(`T${path.replace(/[^a-z]/g, '')}`, { url: upstream.origin + path, responseTransforms: transforms }, ['GET'])));
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

const get = (name: string, accept?: string) =>
  server.inject({ method: 'GET', url: `/api/demo/${name}`, headers: accept ? { accept } : {} });

function expectRefused(res: Awaited<ReturnType<typeof get>>): void {
  expect(res.statusCode).toBe(502);
  const body = res.json() as { traceId: string };
  expect(body).toEqual({ success: false, error: 'The upstream response could not be transformed.', traceId: body.traceId });
  expect(res.body).not.toContain('hunter2');
}

describe('Proxy ResponseTransforms fail closed', () => {
  it.each(['application/xml', 'text/plain', 'text/plain, application/xml;q=0.9'])('asks a negotiating upstream for JSON when the client accepts %s', async (accept) => {
    const res = await get('Tnegotiate', accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-accept-seen']).toBe('application/json');
    expect(res.json()).toEqual(SHAPED);
  });

  it.each([
    ['JSON with a byte order mark', 'Tbom', SHAPED],
    ['text/json', 'Ttextjson', SHAPED],
    ['JSON labelled text/plain', 'Tmislabelled', { value: [SHAPED] }],
  ])('transforms %s', async (_name, endpoint, want) => {
    const res = await get(endpoint);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(want);
    expect(res.body).not.toContain('hunter2');
  });

  it('refuses declared JSON that does not parse (a NaN literal)', async () => {
    expectRefused(await get('Tnan'));
  });

  it('refuses a body that is not JSON and names a removed or masked field', async () => {
    expectRefused(await get('Txmlonly'));
  });

  it('refuses a compressed body', async () => {
    expectRefused(await get('Tgzip'));
  });

  it('passes a body that is not JSON and names no hidden field untouched', async () => {
    const res = await get('Txmlharmless');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('<row><id>1</id></row>');
  });
});
