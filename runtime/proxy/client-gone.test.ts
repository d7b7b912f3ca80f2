import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientGone } from './client-gone.js';

describe('ClientGone', () => {
  let server: Server;
  let origin: string;
  let closedByClient = 0;
  beforeAll(async () => {
    // answers after 5 s: only an abort ends a request sooner
    server = createServer((req, res) => {
      req.socket.on('close', () => (closedByClient += 1));
      setTimeout(() => res.end('late'), 5_000).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('cancels an undici request in flight, which rejects with its reason', async () => {
    const agent = new Agent();
    const gone = new ClientGone();
    const before = closedByClient;
    const pending = agent.request({ origin, path: '/', method: 'GET', signal: gone.signal });
    await sleep(100);
    gone.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' }); // not the answer 5 s later
    await expect.poll(() => closedByClient - before).toBe(1); // the upstream connection was cut
    await agent.close();
  });

  it('cancels a retry delay, and a request started after the abort does not go out', async () => {
    const gone = new ClientGone();
    const delay = sleep(5_000, undefined, { signal: gone.signal });
    gone.abort();
    await expect(delay).rejects.toMatchObject({ name: 'AbortError' });
    const agent = new Agent();
    await expect(agent.request({ origin, path: '/', method: 'GET', signal: gone.signal })).rejects.toMatchObject({ name: 'AbortError' });
    await agent.close();
  });

  it('calls each listener once; a removed listener is not called', () => {
    const gone = new ClientGone();
    const calls: string[] = [];
    const removed = (): void => void calls.push('removed');
    gone.addEventListener('abort', () => calls.push('a'));
    gone.addEventListener('abort', removed);
    gone.removeEventListener('abort', removed);
    gone.abort();
    gone.abort();
    expect(calls).toEqual(['a']);
    expect(gone.aborted).toBe(true);
  });
});
