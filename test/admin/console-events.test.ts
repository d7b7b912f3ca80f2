/**
 * GET /ui/api/events over real HTTP connections: headers, the health status on connect, token and
 * environment events, ids and replay on Last-Event-ID, heartbeats, a slow reader that is cut off
 * without holding up anyone else, and (with a real redis-server) events and revocations crossing
 * from one gateway instance to another.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../runtime/server.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { TempProject } from '../../runtime/testing/generated-fixture.js';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import type { FastifyInstance } from 'fastify';
import { startRedis } from '../setup/redis.js';
import type { TestRedis } from '../setup/redis.js';
import { openSse } from './sse-client.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

describe('GET /ui/api/events', () => {
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    server = await createTestServer({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
      handlers: ECHO_HANDLERS,
      environments: {},
      serverSettings: { Environment: { ServerName: 'sse' }, WebUi: { SeedPassword: 'seed-password-1', SseHeartbeatSeconds: 1 } },
      env: { HEALTHCHECK_DISK_WARNING: '0', HEALTHCHECK_DISK_CRITICAL: '0' },
    });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const auth = () => ({ authorization: `Bearer ${server.token}` });

  it('needs a session or a * token (401)', async () => {
    const stream = await openSse(`${base}/ui/api/events`, {});
    expect(stream.status).toBe(401);
    stream.close();
  });

  it('streams health on connect, then token events with ids; heartbeats; replays after Last-Event-ID', async () => {
    const stream = await openSse(`${base}/ui/api/events`, auth());
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(await stream.waitFor((m) => m.event === 'health')).toEqual({ event: 'health', data: { status: 'Healthy' } });
    expect(stream.messages[0]).toEqual({ retry: '3000' });

    const created = await server.inject({ method: 'POST', url: '/ui/api/tokens', payload: { username: 'sse-user' } });
    expect(created.statusCode).toBe(201);
    const rows = (await server.inject({ method: 'GET', url: '/ui/api/tokens' })).json() as { id: number; username: string }[];
    const id = rows.find((row) => row.username === 'sse-user')!.id;
    const createdEvent = await stream.waitFor((m) => m.event === 'token_created');
    expect(createdEvent).toEqual({ id: expect.stringMatching(/^\d+$/), event: 'token_created', data: { id, username: 'sse-user' } });
    await server.inject({ method: 'DELETE', url: `/ui/api/tokens/${id}` });
    const revokedEvent = await stream.waitFor((m) => m.event === 'token_revoked');
    expect(revokedEvent).toEqual({ id: String(Number(createdEvent.id) + 1), event: 'token_revoked', data: { id, username: 'sse-user' } });
    expect(await stream.waitFor((m) => m.comment === 'heartbeat')).toEqual({ comment: 'heartbeat' });
    stream.close();

    const replay = await openSse(`${base}/ui/api/events`, { ...auth(), 'last-event-id': String(Number(createdEvent.id) - 1) });
    await replay.waitFor((m) => m.event === 'health');
    expect(replay.messages.filter((m) => m.id !== undefined)).toEqual([createdEvent, revokedEvent]);
    replay.close();
  });

  it('endpoint_reload after a reload of generated/', async () => {
    const stream = await openSse(`${base}/ui/api/events`, auth());
    await gatewayOf(server.app).reload();
    expect(await stream.waitFor((m) => m.event === 'endpoint_reload')).toMatchObject({ event: 'endpoint_reload', data: { type: 'sql', count: 1 } });
    stream.close();
  });

  it('a reader that stops reading is cut off; the others get every event', async () => {
    const fast = await openSse(`${base}/ui/api/events`, auth());
    await fast.waitFor((m) => m.event === 'health');
    const slow = net.connect((server.app.server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => slow.once('connect', resolve));
    slow.write(`GET /ui/api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.token}\r\n\r\n`);
    slow.pause();
    while (gatewayOf(server.app).console.events.listenerCount < 2) await new Promise((resolve) => setImmediate(resolve)); // the slow stream is open
    const big = 'x'.repeat(16 * 1024);
    const count = 400; // ~6.5 MB: far beyond socket buffers plus the 1 MB queue of one client
    for (let i = 0; i < count; i++) {
      gatewayOf(server.app).console.events.emit('bulk', { i, big });
      await fast.waitFor((m) => m.event === 'bulk' && (m.data as { i: number }).i === i); // the fast reader keeps up
    }
    expect(fast.messages.filter((m) => m.event === 'bulk')).toHaveLength(count);
    let received = 0;
    slow.on('data', (chunk: Buffer) => (received += chunk.length));
    const closed = new Promise((resolve) => slow.once('close', resolve));
    slow.resume();
    await closed;
    expect(received).toBeLessThan(count * big.length);
    fast.close();
  });
});

describe('two gateway instances on one redis-server', () => {
  let redis: TestRedis;
  let project: TempProject;
  const apps: FastifyInstance[] = [];
  const bases: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    project = await createTempProject({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
      serverSettings: {
        Environment: { ServerName: 'pair', AllowedEnvironments: ['demo'] },
        Auth: { VerificationCacheSeconds: 60 },
        Redis: { Url: redis.url, KeyPrefix: 'pair:' },
        WebUi: { SeedPassword: 'seed-password-1' },
      },
      environments: { demo: { Provider: 'embedded', ConnectionString: 'embedded://demo' } },
    });
    for (let i = 0; i < 2; i++) {
      const app = await buildServer({
        generatedDir: project.generatedDir,
        environmentsDir: project.environmentsDir,
        dataDir: `${project.root}/data`,
        env: { HEALTHCHECK_DISK_WARNING: '0', HEALTHCHECK_DISK_CRITICAL: '0' },
        logger: false,
        handlers: ECHO_HANDLERS,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
      bases.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await project?.cleanup();
    await redis?.stop();
  });

  it('a token created and revoked on A: the event reaches B, and B refuses the token at once', async () => {
    const admin = (await gatewayOf(apps[0]!).access.tokens.create({ username: 'pair-admin' })).token;
    const headers = { authorization: `Bearer ${admin}` };
    const onB = await openSse(`${bases[1]}/ui/api/events`, headers);
    await onB.waitFor((m) => m.event === 'health');
    const created = await apps[0]!.inject({ method: 'POST', url: '/ui/api/tokens', headers, payload: { username: 'shared' } });
    const value = (created.json() as { token: { token: string } }).token.token;
    expect((await onB.waitFor((m) => m.event === 'token_created')).data).toMatchObject({ username: 'shared' });
    // B verifies (and caches for 60 s) the token
    expect((await apps[1]!.inject({ method: 'GET', url: '/api/demo/Inventory/Products', headers: { authorization: `Bearer ${value}` } })).statusCode).toBe(200);
    const id = ((await apps[0]!.inject({ method: 'GET', url: '/ui/api/tokens', headers })).json() as { id: number; username: string }[]).find((r) => r.username === 'shared')!.id;
    expect((await apps[0]!.inject({ method: 'DELETE', url: `/ui/api/tokens/${id}`, headers })).statusCode).toBe(200);
    expect((await onB.waitFor((m) => m.event === 'token_revoked')).data).toEqual({ id, username: 'shared' });
    expect((await apps[1]!.inject({ method: 'GET', url: '/api/demo/Inventory/Products', headers: { authorization: `Bearer ${value}` } })).statusCode).toBe(401);
    onB.close();
  });

  it('Last-Event-ID is global: a stream resumed on the other instance neither loses nor repeats an event', async () => {
    const admin = (await gatewayOf(apps[0]!).access.tokens.create({ username: 'resume-admin' })).token;
    const headers = { authorization: `Bearer ${admin}` };
    const emit = (app: number, n: number) => gatewayOf(apps[app]!).console.events.emit('marker', { n });
    const onA = await openSse(`${bases[0]}/ui/api/events`, headers);
    await onA.waitFor((m) => m.event === 'health');
    // emitted at once on two instances: Redis numbers them in the order their scripts run there,
    // which two connections do not fix; every stream delivers them in that (id) order
    const markers = (stream: typeof onA) => stream.messages.filter((m) => m.event === 'marker');
    const byN = (list: readonly { data?: unknown }[]) => list.map((m) => (m.data as { n: number }).n).sort((a, b) => a - b);
    emit(0, 1);
    emit(1, 2);
    emit(0, 3);
    await onA.waitFor(() => markers(onA).length === 3);
    const seen = markers(onA);
    expect(byN(seen)).toEqual([1, 2, 3]);
    onA.close();
    // missed while reconnecting
    emit(1, 4);
    emit(0, 5);
    const onB = await openSse(`${bases[1]}/ui/api/events`, { ...headers, 'last-event-id': seen.at(-1)!.id! });
    await onB.waitFor((m) => m.event === 'health');
    emit(1, 6);
    await onB.waitFor(() => markers(onB).length === 3);
    const resumed = markers(onB);
    expect(byN(resumed)).toEqual([4, 5, 6]);
    expect(resumed.at(-1)!.data).toEqual({ n: 6 }); // emitted after the resume: after the replayed ones
    const ids = [...seen, ...resumed].map((m) => Number(m.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(6);
    onB.close();
  });

  it('endpoint_reload reaches only the streams of the instance that reloaded', async () => {
    const admin = (await gatewayOf(apps[0]!).access.tokens.create({ username: 'reload-admin' })).token;
    const headers = { authorization: `Bearer ${admin}` };
    const onA = await openSse(`${bases[0]}/ui/api/events`, headers);
    const onB = await openSse(`${bases[1]}/ui/api/events`, headers);
    await Promise.all([onA.waitFor((m) => m.event === 'health'), onB.waitFor((m) => m.event === 'health')]);
    await gatewayOf(apps[0]!).reload();
    expect(await onA.waitFor((m) => m.event === 'endpoint_reload')).toMatchObject({ data: { type: 'sql', count: 1 } });
    gatewayOf(apps[0]!).console.events.emit('after_reload', {}); // shared: B gets it after anything A sent before
    await onB.waitFor((m) => m.event === 'after_reload');
    expect(onB.messages.filter((m) => m.event === 'endpoint_reload')).toEqual([]);
    onA.close();
    onB.close();
  });
});
