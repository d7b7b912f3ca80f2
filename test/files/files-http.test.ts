/**
 * Files endpoints through a listening server with real files on disk: upload, list, download
 * (Range, ETag, 304, HEAD), delete, limits and texts, races, scopes, startup cleanup.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../runtime/server.js';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { encodeFileId } from '../../runtime/files/file-id.js';
import { BOUNDARY, multipartBody, multipartHeaders, rawRequest } from './http-client.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const ENDPOINTS = [
  {
    kind: 'files' as const,
    routePath: 'files/Docs/Reports',
    overrides: { allowedExtensions: ['.txt', '.pdf', '.png'], maxFileSizeBytes: 4096 },
  },
  { kind: 'files' as const, routePath: 'files/Open' },
];

let server: TestServer;
let port: number;
let storage: string;

async function upload(route: string, name: string, content: Buffer | string, query = '', field = 'file') {
  const body = multipartBody(field, name, content);
  return rawRequest(port, `/api/demo/${route}${query}`, {
    method: 'POST',
    headers: multipartHeaders(server.token, body.length),
    body,
  });
}

function get(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  return rawRequest(port, pathname, { method, headers: { authorization: `Bearer ${server.token}`, ...headers } });
}

beforeAll(async () => {
  server = await createTestServer({ generated: { endpoints: ENDPOINTS } });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  port = (server.app.server.address() as { port: number }).port;
  storage = path.join(server.project.root, 'data', 'files');
});
afterAll(async () => server.close());

describe('upload', () => {
  it('stores the file and answers 201 with its id, url and Location', async () => {
    const res = await upload('files/Docs/Reports', 'report 2026.txt', 'hello wharf');
    const fileId = encodeFileId('demo', 'report 2026.txt');
    const url = `/api/demo/files/Docs/Reports/${fileId}`;
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(url);
    expect(res.json()).toEqual({
      success: true,
      fileId,
      filename: 'report 2026.txt',
      contentType: 'text/plain',
      size: 11,
      url,
    });
    expect(await fs.readFile(path.join(storage, 'demo', 'Reports', 'report 2026.txt'), 'utf8')).toBe('hello wharf');
  });

  it.each([
    ['existing name without overwrite', 'dup.txt', '', 409, 'File dup.txt already exists. Use overwrite=true to replace it.'],
    ['extension outside AllowedExtensions', 'x.docx', '', 415, 'Files with extension .docx are not allowed for this endpoint.'],
    ['no extension with AllowedExtensions', 'README', '', 415, 'Files with extension (none) are not allowed for this endpoint.'],
    ['bad overwrite value', 'a.txt', '?overwrite=yes', 400, "overwrite must be 'true' or 'false'."],
    ['a name that sanitises to nothing', '...', '', 400, 'Invalid file name: the name is empty or longer than 255 bytes'],
  ])('%s -> %i', async (_name, filename, query, status, error) => {
    await upload('files/Docs/Reports', 'dup.txt', 'first');
    const res = await upload('files/Docs/Reports', filename, 'second', query);
    expect(res.status).toBe(status);
    expect(res.json()).toEqual({ success: false, error });
  });

  it('a globally blocked extension is refused even where every extension is allowed', async () => {
    const res = await upload('files/Open', 'setup.EXE', 'MZ');
    expect(res.status).toBe(415);
    expect(res.json()).toEqual({ success: false, error: 'Files with extension .exe are blocked on this server.' });
    expect(existsSync(path.join(storage, 'demo', 'Open', 'setup.EXE'))).toBe(false);
  });

  it('overwrite=true replaces the content', async () => {
    await upload('files/Docs/Reports', 'over.txt', 'old');
    const res = await upload('files/Docs/Reports', 'over.txt', 'new content', '?overwrite=true');
    expect(res.status).toBe(201);
    expect(await fs.readFile(path.join(storage, 'demo', 'Reports', 'over.txt'), 'utf8')).toBe('new content');
  });

  it('sanitises the client file name to one safe name inside the directory', async () => {
    const res = await upload('files/Open', '..\\..\\evil/..//we<ird>:na|me?.txt', 'x');
    expect(res.status).toBe(201);
    expect((res.json() as { filename: string }).filename).toBe('we_ird__na_me_.txt');
    expect(existsSync(path.join(storage, 'demo', 'Open', 'we_ird__na_me_.txt'))).toBe(true);
  });

  it.each([
    ['a plain field instead of a file', multipartBody('file', null, 'not a file')],
    ['a file in another field', multipartBody('document', 'a.txt', 'x')],
  ])('400 for %s', async (_name, body) => {
    const res = await rawRequest(port, '/api/demo/files/Docs/Reports', { method: 'POST', headers: multipartHeaders(server.token, body.length), body });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ success: false, error: "No file was uploaded. Send it as multipart/form-data in the field 'file'." });
  });

  it.each([
    ['no boundary in the Content-Type', 'multipart/form-data', multipartBody('file', 'a.txt', 'x'), 'Multipart: Boundary not found'],
    ['a body cut inside the file part', `multipart/form-data; boundary=${BOUNDARY}`, multipartBody('file', 'a.txt', 'hello').subarray(0, 120), 'Unexpected end of multipart data'],
    ['a body cut inside the part headers', `multipart/form-data; boundary=${BOUNDARY}`, multipartBody('file', 'a.txt', 'hello').subarray(0, 40), 'Unexpected end of multipart data'],
  ])('400 for malformed multipart: %s', async (_name, contentType, body, reason) => {
    const res = await rawRequest(port, '/api/demo/files/Open', {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType, 'content-length': body.length },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ success: false, error: `Malformed multipart/form-data body: ${reason}` });
    const left = await fs.readdir(path.join(storage, 'demo', 'Open')).catch(() => []);
    expect(left.filter((name) => name === 'a.txt' || name.startsWith('.wharf-upload-'))).toEqual([]);
  });

  it('400 for a body that is not multipart', async () => {
    const res = await rawRequest(port, '/api/demo/files/Docs/Reports', {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: Buffer.from('{"a":1}'),
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ success: false, error: "No file was uploaded. Send it as multipart/form-data in the field 'file'." });
  });

  it.each([
    ['declared by Content-Length', true],
    ['found while streaming (chunked, no Content-Length)', false],
  ])('413 over MaxFileSizeBytes %s, nothing left on disk', async (_name, withLength) => {
    const body = multipartBody('file', 'big.txt', Buffer.alloc(withLength ? 200_000 : 5000, 'a'));
    const res = await rawRequest(port, '/api/demo/files/Docs/Reports', {
      method: 'POST',
      headers: multipartHeaders(server.token, withLength ? body.length : undefined),
      body: withLength ? body : Readable.from([body.subarray(0, 1000), body.subarray(1000)]),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ success: false, error: 'File exceeds the maximum size of 4096 bytes.' });
    const left = await fs.readdir(path.join(storage, 'demo', 'Reports'));
    expect(left.filter((name) => name.startsWith('big') || name.startsWith('.wharf-upload-'))).toEqual([]);
  });

  it('an upload the client aborts leaves neither the file nor a temp file', async () => {
    const dir = path.join(storage, 'demo', 'Open');
    const body = multipartBody('file', 'aborted.txt', Buffer.alloc(100_000, 'z'));
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/demo/files/Open',
      headers: multipartHeaders(server.token, body.length),
      agent: false,
    });
    request.on('error', () => undefined);
    request.write(body.subarray(0, 60_000));
    const temps = async () => (await fs.readdir(dir).catch(() => [] as string[])).filter((name) => name.startsWith('.wharf-upload-'));
    for (let i = 0; i < 200 && (await temps()).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await temps()).length).toBe(1); // the upload is in flight
    request.destroy();
    for (let i = 0; i < 500 && (await temps()).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await temps()).toEqual([]);
    expect(existsSync(path.join(dir, 'aborted.txt'))).toBe(false);
  });

  it('two concurrent uploads of one name: exactly one 201 and one 409', async () => {
    const content = Buffer.alloc(3000, 'r');
    const results = await Promise.all([upload('files/Open', 'race.txt', content), upload('files/Open', 'race.txt', content)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const names = await fs.readdir(path.join(storage, 'demo', 'Open'));
    expect(names.filter((name) => name.startsWith('.wharf-upload-'))).toEqual([]);
  });
});

describe('download', () => {
  const content = '0123456789abcdefghij';
  let url: string;
  beforeAll(async () => {
    const res = await upload('files/Docs/Reports', 'range.txt', content, '?overwrite=true');
    url = (res.json() as { url: string }).url;
  });

  it('200 with type, disposition, validators and the bytes', async () => {
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(content);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers['content-disposition']).toBe('attachment; filename="range.txt"');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-length']).toBe('20');
    expect(res.headers.etag).toMatch(/^"14-[0-9a-f]+"$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(new Date(res.headers['last-modified']!).getTime()).toBeGreaterThan(0);
  });

  it.each([
    ['bytes=0-4', 206, '01234', 'bytes 0-4/20'],
    ['bytes=15-', 206, 'fghij', 'bytes 15-19/20'],
    ['bytes=-3', 206, 'hij', 'bytes 17-19/20'],
    ['bytes=18-100', 206, 'ij', 'bytes 18-19/20'],
    ['bytes=20-', 416, null, 'bytes */20'],
    ['bytes=-0', 416, null, 'bytes */20'],
    ['bytes=5-2', 200, content, undefined],
    ['bytes=0-1,4-5', 200, content, undefined],
    ['items=0-1', 200, content, undefined],
  ])('Range %s -> %i', async (range, status, body, contentRange) => {
    const res = await get(url, { range });
    expect(res.status).toBe(status);
    expect(res.headers['content-range']).toBe(contentRange);
    if (body !== null) expect(res.body.toString()).toBe(body);
    else expect(res.json()).toEqual({ success: false, error: 'Range not satisfiable: the file has 20 bytes.' });
  });

  it('If-None-Match with the ETag -> 304 without a body; If-Range with another tag -> whole file', async () => {
    const etag = (await get(url)).headers.etag!;
    const res = await get(url, { 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const ifRange = await get(url, { range: 'bytes=0-1', 'if-range': '"other"' });
    expect(ifRange.status).toBe(200);
    expect(ifRange.body.toString()).toBe(content);
  });

  it('If-Range with a date: only exactly the Last-Modified gives the range; a later date gives the whole file', async () => {
    const lastModified = (await get(url)).headers['last-modified']!;
    const exact = await get(url, { range: 'bytes=0-1', 'if-range': lastModified });
    expect(exact.status).toBe(206);
    expect(exact.body.toString()).toBe('01');
    const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();
    const res = await get(url, { range: 'bytes=0-1', 'if-range': later });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(content);
  });

  it('HEAD answers the headers only', async () => {
    const res = await get(url, {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('20');
    expect(res.body.length).toBe(0);
  });

  it('non-ASCII names get an RFC 6266 filename* and an ASCII fallback', async () => {
    const res = await upload('files/Open', 'Übersicht 100%.txt', 'ü');
    const download = await get((res.json() as { url: string }).url);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="_bersicht 100_.txt"; filename*=UTF-8''%C3%9Cbersicht%20100%25.txt`,
    );
  });
});

describe('list and delete', () => {
  beforeAll(async () => {
    for (const name of ['list-a.txt', 'list-b.txt', 'list-c.txt', 'other.txt']) await upload('files/Open', name, name, '?overwrite=true');
  });

  it('lists with prefix and paging in the envelope', async () => {
    const res = await get('/api/demo/files/Open/list?prefix=list-&$top=2');
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    const body = res.json() as { count: number; value: { fileName: string; fileId: string; url: string; size: number; contentType: string }[]; nextLink: string };
    expect(body.count).toBe(2);
    expect(body.value.map((v) => v.fileName)).toEqual(['list-a.txt', 'list-b.txt']);
    expect(body.value[0]).toMatchObject({
      fileId: encodeFileId('demo', 'list-a.txt'),
      url: `/api/demo/files/Open/${encodeFileId('demo', 'list-a.txt')}`,
      size: 10,
      contentType: 'text/plain',
    });
    expect(body.nextLink).toBe('/api/demo/files/Open/list?prefix=list-&$top=2&$skip=2');
    const next = (await get(body.nextLink)).json() as { value: { fileName: string }[]; nextLink: string | null };
    expect(next.value.map((v) => v.fileName)).toEqual(['list-c.txt']);
    expect(next.nextLink).toBeNull();
  });

  it.each([
    ['$top=1001', '$top cannot exceed 1000'],
    ['$skip=-1', '$skip cannot be negative'],
    ['$top=abc', 'Invalid $top value: abc'],
  ])('list ?%s -> 400', async (query, error) => {
    const res = await get(`/api/demo/files/Open/list?${query}`);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ success: false, error });
  });

  it('deletes, then the id is a 404', async () => {
    const id = encodeFileId('demo', 'other.txt');
    const res = await get(`/api/demo/files/Open/${id}`, {}, 'DELETE');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'File deleted successfully', result: null });
    expect(existsSync(path.join(storage, 'demo', 'Open', 'other.txt'))).toBe(false);
    expect((await get(`/api/demo/files/Open/${id}`, {}, 'DELETE')).status).toBe(404);
    expect((await get(`/api/demo/files/Open/${id}`)).json()).toEqual({ success: false, error: 'File not found.' });
  });

  it('PUT is not allowed on a Files endpoint', async () => {
    expect((await get('/api/demo/files/Open', {}, 'PUT')).status).toBe(405);
  });
});

describe('scopes', () => {
  it.each([
    ['read', 'GET', 200],
    ['read', 'POST', 403],
    ['read', 'DELETE', 403],
    ['write', 'POST', 201],
    ['write', 'GET', 403],
  ])('a %s token: %s -> %i', async (scope, method, status) => {
    const { token } = await gatewayOf(server.app).access.tokens.create({ username: `scoped-${scope}-${method}`, allowedScopes: scope });
    const body = multipartBody('file', `scoped-${scope}.txt`, 'x');
    const res =
      method === 'POST'
        ? await rawRequest(port, '/api/demo/files/Open?overwrite=true', { method, headers: multipartHeaders(token, body.length), body })
        : await rawRequest(port, method === 'GET' ? '/api/demo/files/Open/list' : `/api/demo/files/Open/${encodeFileId('demo', 'list-a.txt')}`, {
            method,
            headers: { authorization: `Bearer ${token}` },
          });
    expect(res.status).toBe(status);
  });
});

describe('startup', () => {
  it('removes upload temp files a crash left behind, not an upload in progress (another instance on the same directory)', async () => {
    const dir = path.join(storage, 'demo', 'Open');
    await fs.writeFile(path.join(dir, '.wharf-upload-leftover'), 'partial');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await fs.utimes(path.join(dir, '.wharf-upload-leftover'), twoHoursAgo, twoHoursAgo);
    await fs.writeFile(path.join(dir, '.wharf-upload-in-progress'), 'partial');
    const restarted = await buildServer({
      generatedDir: server.project.generatedDir,
      environmentsDir: server.project.environmentsDir,
      dataDir: path.join(server.project.root, 'data'),
      env: {},
      logger: false,
    });
    await restarted.close();
    expect(existsSync(path.join(dir, '.wharf-upload-leftover'))).toBe(false);
    expect(existsSync(path.join(dir, '.wharf-upload-in-progress'))).toBe(true);
    await fs.rm(path.join(dir, '.wharf-upload-in-progress'));
  });
});
