/**
 * CORS on Proxy endpoints: the gateway's Cors:* policy decides, not the upstream. An upstream with
 * its own CORS headers (many reflect any Origin with credentials, or answer `*`) must neither open
 * the API to an origin the gateway does not list, nor replace the gateway's answer to a listed one
 * (and a cached replay, which never keeps Access-Control-*, must answer the same as a miss).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { proxy } from '../proxy/proxy-server.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../proxy/scripted-upstream.js';

const APP = 'https://app.example.com';
let upstream: ScriptedUpstream;
let server: TestServer;

beforeAll(async () => {
  upstream = await startScriptedUpstream((req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      // a permissive upstream: any origin, with credentials, every header readable
      'access-control-allow-origin': String(req.headers.origin ?? '*'),
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'X-Internal-Secret',
      'x-internal-secret': 's3cr3t',
    });
    if (req.url?.includes('stream')) {
      // no Content-Length: streamed through, not read whole
      res.write('{"ok":');
      setTimeout(() => res.end('true}'), 10);
      return;
    }
    res.end('{"ok":true}');
  });
  server = await createTestServer({
    generated: { endpoints: [proxy('Open', { url: `${upstream.origin}/open` }, ['GET'])] },
    serverSettings: {
      Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] },
      RateLimiting: { Enabled: false },
      Caching: { Enabled: true },
      Cors: { AllowedOrigins: [APP], AllowCredentials: true },
    },
  });
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

const cors = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-')));

describe('CORS on a Proxy endpoint whose upstream sends its own CORS headers', () => {
  it('an origin the gateway does not list gets no CORS headers, whatever the upstream said', async () => {
    for (const url of ['/api/demo/Open?evil=1', '/api/demo/Open?evil=1&stream=1']) {
      const response = await server.inject({ method: 'GET', url, headers: { origin: 'https://evil.example' } });
      expect([url, response.statusCode, response.body]).toEqual([url, 200, '{"ok":true}']);
      expect(cors(response.headers)).toEqual({});
    }
  });

  it('a listed origin gets the gateway\'s answer, the same on a miss and on a hit', async () => {
    const miss = await server.inject({ method: 'GET', url: '/api/demo/Open?app=1', headers: { origin: APP } });
    const hit = await server.inject({ method: 'GET', url: '/api/demo/Open?app=1', headers: { origin: APP } });
    expect([miss.headers['x-cache'], hit.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    const want = {
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'ETag, Retry-After, WWW-Authenticate, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Total-Records, X-Query-Time, X-Cache',
    };
    expect(cors(miss.headers)).toEqual(want);
    expect(cors(hit.headers)).toEqual(want);
  });
});
