import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientGone } from './client-gone.js';
import { completeBody, loadUndiciInternals, SMALL_BODY_BYTES, smallFirstRequest } from './small-first-request.js';

const SMALL = Buffer.from(JSON.stringify({ id: 42, name: 'Widget' }));
const LARGE = Buffer.alloc(SMALL_BODY_BYTES + 1, 'x');

describe('smallFirstRequest', () => {
  let server: Server;
  let origin: string;
  const agent = new Agent();
  let internals: Awaited<ReturnType<typeof loadUndiciInternals>>;
  beforeAll(async () => {
    internals = await loadUndiciInternals();
    server = createServer((req, res) => {
      if (req.url === '/small') return res.writeHead(200, { 'content-type': 'application/json', 'content-length': SMALL.length }).end(SMALL);
      if (req.url === '/large') return res.writeHead(200, { 'content-length': LARGE.length }).end(LARGE);
      if (req.url === '/chunked') return res.writeHead(200, { 'content-type': 'text/plain' }).end('no length');
      if (req.url === '/short') {
        // announces 100 bytes, sends 11, then the connection ends
        res.writeHead(200, { 'content-length': 100 });
        res.write('only eleven');
        setTimeout(() => res.socket?.destroy(), 20);
        return undefined;
      }
      // /stall: headers, a part of the body, then nothing until the client goes away
      res.writeHead(200, { 'content-length': 100 });
      res.write('part');
      return undefined;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await agent.close();
    server.closeAllConnections();
    server.close();
  });

  const get = (path: string, extra: { method?: 'GET' | 'HEAD'; signal?: AbortSignal } = {}) =>
    smallFirstRequest(agent, internals, { origin, path, method: extra.method ?? 'GET', ...(extra.signal ? { signal: extra.signal } : {}) });

  it('a response announcing at most SMALL_BODY_BYTES gets a body that is not a stream, with the bytes whole (issue 30)', async () => {
    const response = await get('/small');
    expect([response.statusCode, response.headers['content-type'], response.headers['content-length']]).toEqual([200, 'application/json', String(SMALL.length)]);
    expect(response.body).not.toBeInstanceOf(Readable);
    expect(Buffer.from(await response.body.bytes()).equals(SMALL)).toBe(true);
    expect(await (await get('/small')).body.text()).toBe(SMALL.toString());
    await (await get('/small')).body.dump();
  });

  it('a small body that came with its headers is taken at once, without a promise; a stream never is', async () => {
    const small = await get('/small');
    expect(completeBody(small.body)?.equals(SMALL)).toBe(true);
    const stalled = await get('/stall');
    expect(completeBody(stalled.body)).toBeNull(); // still arriving: read it with bytes()
    stalled.body.destroy();
    const large = await get('/large');
    expect(completeBody(large.body)).toBeNull();
    await large.body.dump();
  });

  it('a larger response, one without a length and a HEAD are undici\'s own stream, as with request()', async () => {
    const large = await get('/large');
    expect(large.body).toBeInstanceOf(Readable);
    expect((await large.body.bytes()).length).toBe(LARGE.length);
    const chunked = await get('/chunked');
    expect(chunked.body).toBeInstanceOf(Readable);
    expect(await chunked.body.text()).toBe('no length');
    const head = await get('/small', { method: 'HEAD' });
    expect(head.body).toBeInstanceOf(Readable);
    await head.body.dump();
  });

  it('a small body that breaks off rejects its reader with undici\'s error', async () => {
    const response = await get('/short');
    expect(response.body).not.toBeInstanceOf(Readable);
    await expect(response.body.bytes()).rejects.toThrow();
  });

  it('the client going away after the headers cancels the upstream request and rejects the reader with its reason', async () => {
    const gone = new ClientGone();
    const response = await get('/stall', { signal: gone.signal });
    const reading = response.body.bytes();
    gone.abort();
    await expect(reading).rejects.toThrow('The client went away');
  });

  it('a signal already aborted never sends the request', async () => {
    const gone = new ClientGone();
    gone.abort();
    await expect(get('/small', { signal: gone.signal })).rejects.toThrow('The client went away');
  });
});
