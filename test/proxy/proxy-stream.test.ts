/** Streaming pass-through over real sockets: the gateway listens, the client reads chunk by chunk. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { Agent, request } from 'undici';
import { proxy, proxyServer } from './proxy-server.js';
import { startUpstream } from './upstream-server.js';
import type { Upstream } from './upstream-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let upstream: Upstream;
let server: TestServer;
let base: string;
const client = new Agent();

beforeAll(async () => {
  upstream = await startUpstream();
  server = await proxyServer(
    [proxy('Stream', { url: `${upstream.origin}/stream` }, ['GET']), proxy('Hang', { url: `${upstream.origin}/hang` }, ['GET'])],
    { BodyTimeoutMs: 5000, HeadersTimeoutMs: 5000 },
  );
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await client.destroy();
  await server.close();
  await upstream.close();
});

describe('streaming', () => {
  it('passes a large body through as it arrives (the first bytes reach the client before the upstream ends)', async () => {
    const res = await request(`${base}/api/demo/Stream?chunks=16&delay=30`, { dispatcher: client, headers: { authorization: `Bearer ${server.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    let total = 0;
    let endedAtFirstChunk: number | null = null;
    const endedBefore = upstream.streams.ended;
    for await (const chunk of res.body) {
      if (endedAtFirstChunk === null) endedAtFirstChunk = upstream.streams.ended - endedBefore;
      total += (chunk as Buffer).length;
    }
    expect(endedAtFirstChunk).toBe(0);
    expect(total).toBe(16 * 64 * 1024);
    expect(upstream.streams.ended - endedBefore).toBe(1);
  });

  it('stops the upstream transfer when the client goes away', async () => {
    const abortedBefore = upstream.streams.aborted;
    const controller = new AbortController();
    const res = await request(`${base}/api/demo/Stream?chunks=200&delay=10`, {
      dispatcher: client,
      headers: { authorization: `Bearer ${server.token}` },
      signal: controller.signal,
    });
    for await (const _chunk of res.body) {
      controller.abort();
      break;
    }
    await expect.poll(() => upstream.streams.aborted - abortedBefore, { timeout: 5000 }).toBe(1);
  });

  it('cancels the upstream request when the client goes away before the upstream answers', async () => {
    const closedBefore = upstream.hung.closed;
    const hitsBefore = upstream.hits.get('/hang') ?? 0;
    // a client of its own: the connection ends with the request
    const caller = httpRequest(`${base}/api/demo/Hang`, { headers: { authorization: `Bearer ${server.token}` } });
    caller.on('error', () => undefined);
    caller.end();
    await expect.poll(() => (upstream.hits.get('/hang') ?? 0) - hitsBefore).toBe(1);
    caller.destroy();
    // the gateway cut its upstream connection (the upstream never answers, so nothing else closes it)
    await expect.poll(() => upstream.hung.closed - closedBefore, { timeout: 3000 }).toBe(1);
  });
});
