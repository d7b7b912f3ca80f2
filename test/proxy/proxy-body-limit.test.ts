/**
 * Proxy:BufferLimitBytes through the running server (issue 23 item 7): a body Wharf must read whole
 * is never read past the limit. One to transform answers 502 with the spec's body; one the response
 * cache is waiting for streams on, complete, and is not stored.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from './proxy-server.js';
import { startScriptedUpstream } from './scripted-upstream.js';
import type { ScriptedUpstream } from './scripted-upstream.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

const LIMIT = 64 * 1024;
let upstream: ScriptedUpstream;
let server: TestServer;
let endlessClosed = 0;

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** A JSON array of `rows` rows, about 50 bytes each. */
function rowsJson(rows: number): string {
  return JSON.stringify(Array.from({ length: rows }, (_, id) => ({ id, password: 'hunter2', name: `row ${id}`.padEnd(12, '.') })));
}

beforeAll(async () => {
  // /json?rows=N[&chunked=1]: announced with Content-Length unless chunked (then written in 8 KiB pieces)
  // /endless: a JSON array that never ends, written until the other side closes the connection
  upstream = await startScriptedUpstream(async (_req, res, url) => {
    if (url.pathname === '/endless') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const row = Buffer.from(`${JSON.stringify({ id: 1, password: 'hunter2' })},`.repeat(1000));
      while (!res.destroyed) {
        if (!res.write(row)) await drainedOrClosed(res);
      }
      endlessClosed += 1;
      return;
    }
    const body = Buffer.from(rowsJson(Number(url.searchParams.get('rows'))));
    if (url.searchParams.get('chunked') !== '1') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    for (let at = 0; at < body.length; at += 8192) {
      if (!res.write(body.subarray(at, at + 8192))) await drainedOrClosed(res);
    }
    res.end();
  });
  server = await proxyServer(
    [
      proxy('Shaped', { url: `${upstream.origin}/json`, responseTransforms: { remove: ['password'], rename: {}, mask: [] } }, ['GET']),
      proxy('Cached', { url: `${upstream.origin}/json` }, ['GET']),
      proxy('Endless', { url: `${upstream.origin}/endless`, responseTransforms: { remove: ['password'], rename: {}, mask: [] } }, ['GET']),
    ],
    { BufferLimitBytes: LIMIT },
    { caching: true },
  );
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

const bigRows = 4000; // about 200 KB, three times the limit

describe('Proxy:BufferLimitBytes', () => {
  it.each(['', '&chunked=1'])('answers 502 for a body to transform beyond the limit (%s)', async (chunked) => {
    const res = await server.inject({ method: 'GET', url: `/api/demo/Shaped?rows=${bigRows}${chunked}` });
    expect(res.statusCode).toBe(502);
    const body = res.json() as { traceId: string };
    expect(body).toEqual({ success: false, error: 'The upstream response is too large to process.', traceId: body.traceId });
  });

  it('stops reading a body that never ends at the limit and answers 502', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Endless' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ success: false, error: 'The upstream response is too large to process.' });
    await expect.poll(() => endlessClosed, { timeout: 5000 }).toBe(1);
  });

  it('transforms a body within the limit', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Shaped?rows=100&chunked=1' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('hunter2');
    expect((res.json() as unknown[]).length).toBe(100);
  });

  it.each(['', '&chunked=1'])('streams a cacheable body beyond the limit complete and does not store it (%s)', async (chunked) => {
    const url = `/api/demo/Cached?rows=${bigRows}${chunked}`;
    const first = await server.inject({ method: 'GET', url });
    const second = await server.inject({ method: 'GET', url });
    for (const res of [first, second]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(rowsJson(bigRows));
      expect(res.headers['x-cache']).toBe('MISS');
    }
  });

  it('still caches a body within the limit', async () => {
    const url = '/api/demo/Cached?rows=100&chunked=1';
    await server.inject({ method: 'GET', url });
    const second = await server.inject({ method: 'GET', url });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toBe(rowsJson(100));
  });
});
