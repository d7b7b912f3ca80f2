/**
 * GET /ui/api/events after the caller lost the right to it, and many streams from one caller.
 * Old behaviour: the caller was identified once, when the stream opened; after sign-out, a revoked
 * token or a disabled account the stream went on delivering every console event (new tokens'
 * names, settings and environment changes) for as long as the connection lived. And one caller
 * (a viewer too) could open streams without bound, each holding a place among
 * Server:MaxConcurrentRequests, until the gateway answered 503 to everyone.
 * Now the caller is identified again at every heartbeat (1 s here) and the stream closed when
 * refused; at most MAX_STREAMS_PER_CALLER per account or token, then 429.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_CALLER } from '../../runtime/admin/events-route.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { signIn } from '../admin/console-client.js';
import { openSse, type SseStream } from '../admin/sse-client.js';

const SEED = 'seed-password-1';
let server: TestServer;
let base: string;

beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
    handlers: ECHO_HANDLERS,
    environments: {},
    serverSettings: { Environment: { ServerName: 'sse' }, WebUi: { SeedPassword: SEED, SseHeartbeatSeconds: 1, SignInAttemptsPerIp: 100 } },
    env: { HEALTHCHECK_DISK_WARNING: '0', HEALTHCHECK_DISK_CRITICAL: '0' },
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

/** Resolves true when the server ends the stream within `ms` (a bounded wait, not a timing claim). */
function endsWithin(stream: SseStream, ms: number): Promise<boolean> {
  return Promise.race([stream.ended.then(() => true), new Promise<boolean>((done) => setTimeout(() => done(false), ms))]);
}

async function fullToken(username: string): Promise<{ id: number; token: string }> {
  const { token, record } = await gatewayOf(server.app).access.tokens.create({ username });
  return { id: record.id, token };
}

describe('a stream whose caller lost the right to it is closed', () => {
  it('after sign-out', async () => {
    const session = await signIn(server.app, 'admin', SEED);
    const stream = await openSse(`${base}/ui/api/events`, { cookie: session.cookie });
    expect(stream.status).toBe(200);
    await stream.waitFor((m) => m.event === 'health');
    expect((await session.request('DELETE', '/ui/api/auth')).statusCode).toBe(200);
    expect(await endsWithin(stream, 5000)).toBe(true);
    stream.close();
  });

  it('after its token is revoked; a stream of another token keeps its events', async () => {
    const doomed = await fullToken('sse-doomed');
    const other = await fullToken('sse-other');
    const stream = await openSse(`${base}/ui/api/events`, { authorization: `Bearer ${doomed.token}` });
    const kept = await openSse(`${base}/ui/api/events`, { authorization: `Bearer ${other.token}` });
    await stream.waitFor((m) => m.event === 'health');
    expect((await server.inject({ method: 'DELETE', url: `/ui/api/tokens/${doomed.id}` })).statusCode).toBe(200);
    expect(await endsWithin(stream, 5000)).toBe(true);
    await server.inject({ method: 'POST', url: '/ui/api/tokens', payload: { username: 'sse-after' } });
    expect(await kept.waitFor((m) => m.event === 'token_created' && (m.data as { username: string }).username === 'sse-after')).toMatchObject({ event: 'token_created' });
    expect(stream.messages.some((m) => m.event === 'token_created' && (m.data as { username: string }).username === 'sse-after')).toBe(false);
    kept.close();
    stream.close();
  });
});

describe('streams per caller', () => {
  it(`at most ${MAX_STREAMS_PER_CALLER} per token: then 429; closing one makes room`, async () => {
    const { token } = await fullToken('sse-many');
    const headers = { authorization: `Bearer ${token}` };
    const streams: SseStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_CALLER; i++) {
      const stream = await openSse(`${base}/ui/api/events`, headers);
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    const refused = await fetch(`${base}/ui/api/events`, { headers });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'Too many requests',
      message: `Too many event streams are open for this account or token (at most ${MAX_STREAMS_PER_CALLER}). Close one first.`,
    });
    // another caller is not affected
    const other = await openSse(`${base}/ui/api/events`, { authorization: `Bearer ${server.token}` });
    expect(other.status).toBe(200);
    other.close();
    const first = streams.shift()!;
    first.close();
    await first.ended;
    let again: SseStream | null = null;
    for (let attempt = 0; attempt < 50 && again === null; attempt++) {
      const next = await openSse(`${base}/ui/api/events`, headers);
      if (next.status === 200) again = next;
      else {
        next.close();
        await new Promise((done) => setTimeout(done, 20));
      }
    }
    expect(again?.status).toBe(200);
    again?.close();
    for (const stream of streams) stream.close();
  });
});

describe('HEAD /ui/api/events', () => {
  it('answers the headers and ends: the next request on the same connection is answered (was: both waited for ever)', async () => {
    const { request: send, Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (method: string, path: string) =>
      new Promise<{ status: number; type: string | undefined }>((resolve, reject) => {
        const outgoing = send(`${base}${path}`, { method, agent, headers: { authorization: `Bearer ${server.token}` } }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] }));
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
    const within = <T>(promise: Promise<T>) => Promise.race([promise, new Promise<'no answer'>((done) => setTimeout(() => done('no answer'), 5000))]);
    try {
      expect(await within(call('HEAD', '/ui/api/events'))).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8' });
      expect(await within(call('GET', '/ui/api/overview'))).toEqual({ status: 200, type: 'application/json; charset=utf-8' });
    } finally {
      agent.destroy();
    }
  }, 20_000);
});
