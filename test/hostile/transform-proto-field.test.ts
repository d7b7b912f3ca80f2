/**
 * An upstream JSON field named `__proto__` (JSON.parse makes it an ordinary own property) through
 * a Proxy endpoint's ResponseTransforms: the transform assigned it to the output row, which set
 * the row's prototype instead, so the field vanished from the answer (and its value could shadow
 * names the row does not have). It must pass like any other field, the other rules applied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { proxy, proxyServer } from '../proxy/proxy-server.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../proxy/scripted-upstream.js';

let upstream: ScriptedUpstream;
let server: TestServer;
const BODY = '{"value":[{"__proto__":{"card":"4111"},"id":1,"card":"5500"}]}';

beforeAll(async () => {
  upstream = await startScriptedUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(BODY);
  });
  server = await proxyServer([proxy('Cards', { url: `${upstream.origin}/cards`, responseTransforms: { remove: [], rename: { id: 'Id' }, mask: ['card'] } }, ['GET'])]);
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

describe('a field named __proto__ in a transformed upstream body', () => {
  it('is kept as a field, the other rules applied', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Cards' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"value":[{"__proto__":{"card":"4111"},"Id":1,"card":"***"}]}');
  });
});
