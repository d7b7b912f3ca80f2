/**
 * The order of a shutdown, over real connections: on SIGTERM /health/ready turns 503 while every
 * other route is still served for the delay; then a new connection is refused, a request on a
 * keep-alive connection accepted before is still served (with Connection: close), and the process
 * "exits" 0 once nothing is in flight.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../testing/test-server.js';
import { handleShutdownSignals, REPEATED_SIGNAL_MS, signalEcho } from './graceful-shutdown.js';

let server: TestServer;
let port: number;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };

beforeAll(async () => {
  server = await createTestServer({ generated: { endpoints: [] } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  // only the listeners this test added (the test runner has its own)
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    for (const listener of process.listeners(signal)) if (!before[signal].includes(listener)) process.off(signal, listener);
  }
});

function get(path: string, options: { agent?: http.Agent } = {}): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: options.agent ?? false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    request.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('graceful shutdown', () => {
  it('unready first, serving during the delay; then refused, accepted connections finished; exit 0', async () => {
    const logs: string[] = [];
    const log = { info: (o: object) => logs.push(JSON.stringify(o)), warn: (o: object) => logs.push(JSON.stringify(o)), error: (o: object) => logs.push(JSON.stringify(o)) };
    let exitCode: number | null = null;
    const exited = new Promise<void>((resolve) => {
      handleShutdownSignals({ app: server.app, url: `http://127.0.0.1:${port}`, close: () => server.app.close() }, {
        deadlineMs: 5000,
        delayMs: 600,
        log,
        exit: (code) => {
          exitCode = code;
          resolve();
        },
      });
    });
    // a keep-alive connection opened before the signal
    expect((await get('/health/live', { agent })).status).toBe(200);

    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGTERM', 'SIGTERM'); // delivered twice at once (a terminal and npm): still one shutdown
    expect(await get('/health/ready')).toMatchObject({ status: 503, body: 'Shutting down' });
    expect(await get('/health/live')).toMatchObject({ status: 200, body: 'Alive' }); // new connections still served
    await sleep(900); // the delay has passed: the port is closed
    await expect(get('/health/live')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // the keep-alive connection accepted before: still served, and told to close
    expect(await get('/health/live', { agent })).toEqual({ status: 200, connection: 'close', body: 'Alive' });
    await exited;
    expect(exitCode).toBe(0);
    expect(logs.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(['server.shutdown', 'server.signal_repeated', 'server.stopped_accepting', 'server.stopped']);
  });
});

describe('a repeated delivery of the first signal', () => {
  it('is the same signal within REPEATED_SIGNAL_MS of the first; anything else is a second signal', () => {
    let now = 10_000;
    const echo = signalEcho(() => now);
    expect(echo('SIGINT')).toBe(false); // the first
    now += REPEATED_SIGNAL_MS - 1;
    expect(echo('SIGINT')).toBe(true);
    expect(echo('SIGTERM')).toBe(false); // another signal
    now += 1;
    expect(echo('SIGINT')).toBe(false); // the same, but a second later: the user asks again
  });
});
