/**
 * Hostile uploads to a Files endpoint through a listening server, files on a real disk: a body cut
 * short after a complete file part, an upload still arriving when the handler timeout answers, and
 * a coded (compressed) body.
 * Nothing may be published or left behind, and the answer is never a 500.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';
import { BOUNDARY, multipartHeaders, rawRequest } from '../files/http-client.js';

let server: TestServer;
let port: number;
let dir: string;

beforeAll(async () => {
  server = await createTestServer({ generated: { endpoints: [{ kind: 'files', routePath: 'files/Open' }] }, env: { Server__HandlerTimeoutSeconds: '1' } });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  port = (server.app.server.address() as { port: number }).port;
  dir = path.join(server.project.root, 'data', 'files', 'demo', 'Open');
});
afterAll(async () => server?.close());

const filePart = (name: string, content: string) =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`);
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);
const stored = async () => fs.readdir(dir).catch(() => [] as string[]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('hostile uploads', () => {
  it('a body cut short after a complete file part: 400 malformed multipart (was 500), nothing stored', async () => {
    const body = Buffer.concat([filePart('cut.txt', 'complete content'), Buffer.from(`--${BOUNDARY}\r\nContent-Disp`)]);
    const res = await rawRequest(port, '/api/demo/files/Open', { method: 'POST', headers: multipartHeaders(server.token, body.length), body });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'Malformed multipart/form-data body: Unexpected end of multipart data' });
    expect((await stored()).filter((name) => name === 'cut.txt' || name.startsWith('.wharf-upload-'))).toEqual([]);
  });

  it('an upload still arriving when the handler timeout answers 503 stops: its temp file is removed and nothing is published (was: the temp file and its handle kept for good)', async () => {
    const body = Buffer.concat([filePart('slow.txt', 'S'.repeat(1000)), closing]);
    const stream = new PassThrough();
    const answer = rawRequest(port, '/api/demo/files/Open', { method: 'POST', headers: multipartHeaders(server.token, body.length), body: stream });
    stream.write(body.subarray(0, 500));
    const temps = async () => (await stored()).filter((name) => name.startsWith('.wharf-upload-'));
    for (let i = 0; i < 200 && (await temps()).length === 0; i++) await sleep(10);
    expect(await temps()).toHaveLength(1); // the upload is in flight
    await sleep(2000); // past the 1 s handler timeout (swept at most a tenth of it late)
    stream.end(body.subarray(500)); // the rest arrives after the answer
    const res = await answer;
    expect(res.status).toBe(503);
    expect(res.json()).toEqual({ success: false, error: 'The request did not complete in time.' });
    for (let i = 0; i < 300 && (await temps()).length > 0; i++) await sleep(10);
    expect(await temps()).toEqual([]);
    await sleep(200);
    expect(await stored()).not.toContain('slow.txt');
  });

  it.each([
    ['gzip, really compressed', 'gzip', true],
    ['gzip on a plain body (was stored as if it were not coded)', 'gzip', false],
    ['br', 'br', false],
  ])('a multipart body with Content-Encoding %s: 415 as for a JSON body, nothing stored', async (_name, coding, compress) => {
    const plain = Buffer.concat([filePart('coded.txt', 'content'), closing]);
    const body = compress ? gzipSync(plain) : plain;
    const res = await rawRequest(port, '/api/demo/files/Open', {
      method: 'POST',
      headers: { ...multipartHeaders(server.token, body.length), 'content-encoding': coding },
      body,
    });
    expect(res.status).toBe(415);
    expect(res.json()).toEqual({ success: false, error: `Content-Encoding '${coding}' is not supported.` });
    expect((await stored()).filter((name) => name === 'coded.txt' || name.startsWith('.wharf-upload-'))).toEqual([]);
  });

  it('Content-Encoding identity is no coding: stored', async () => {
    const body = Buffer.concat([filePart('identity.txt', 'content'), closing]);
    const res = await rawRequest(port, '/api/demo/files/Open', { method: 'POST', headers: { ...multipartHeaders(server.token, body.length), 'content-encoding': 'identity' }, body });
    expect(res.status).toBe(201);
  });
});

