/**
 * An upstream that breaks off in the middle of a large body whose URLs Wharf rewrites: the client's
 * response is cut (its headers are already out) and the process goes on serving. The upstream body
 * was piped into the rewriting stream with `.pipe()`, which passes no error on and leaves the
 * source's 'error' event to nobody: the rewriting stream never ended and the client's response hung
 * (issue 23 item 1, the audit of per-request streams).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from './proxy-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let upstream: http.Server;
let origin: string;
let server: TestServer;
let base: string;

beforeAll(async () => {
  upstream = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`{"self":"${origin}/broken","pad":"${'x'.repeat(200 * 1024)}`);
    setTimeout(() => res.socket?.destroy(), 50);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  server = await proxyServer([proxy('Broken', { url: `${origin}/broken` }, ['GET'])], { BodyTimeoutMs: 5000 });
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

function get(path: string): Promise<{ status: number; complete: boolean; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${path}`, { headers: { authorization: `Bearer ${server.token}` }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, complete: true, body }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, complete: false, body }));
    });
    request.on('error', reject);
  });
}

describe('an upstream body that breaks off while its URLs are rewritten', () => {
  it('cuts the client response and keeps serving', async () => {
    const broken = await get('/api/demo/Broken');
    expect(broken.status).toBe(200);
    expect(broken.complete).toBe(false);
    expect(broken.body).toContain(`"self":"/api/demo/Broken"`); // rewritten, relative (no Proxy:PublicBaseUrl)
    const live = await get('/health/live');
    expect(live).toMatchObject({ status: 200, complete: true });
  });
});
