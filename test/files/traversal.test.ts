/**
 * Path traversal corpus against a listening server: every variant (encoded, unencoded, Windows
 * separators, unicode dots, NUL, absolute paths, symlinks, another environment's ids, non-canonical
 * ids) answers 404 on download, HEAD and DELETE; no byte outside the storage directory is served,
 * and nothing inside or outside it is removed or created.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFileId } from '../../runtime/files/file-id.js';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { rawRequest } from './http-client.js';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-ROOT';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Raw path suffixes after `/api/demo/files/Open/`. */
const RAW_VARIANTS = [
  '..', '../secret.txt', '../../secret.txt', '../../../../../../etc/passwd', './inside.txt', '.',
  '..%2Fsecret.txt', '..%2fsecret.txt', '%2e%2e', '%2e%2e%2fsecret.txt', '%2E%2E%2F%2E%2E%2Fsecret.txt',
  '%2e%2e/%2e%2e/secret.txt', '..%5csecret.txt', '..%5C..%5Csecret.txt', '..\\secret.txt', '..\\..\\secret.txt',
  '%c0%ae%c0%ae%2fsecret.txt', '%c0%ae%c0%ae/secret.txt', '%e2%80%a4%e2%80%a4%2fsecret.txt',
  '%ef%bc%8e%ef%bc%8e%ef%bc%8fsecret.txt', '%e2%80%a5/secret.txt', '....//secret.txt', '..;/secret.txt',
  '.%00./secret.txt', 'inside.txt%00.png', '%00', '/etc/passwd', '%2fetc%2fpasswd', 'C:%5cWindows%5cwin.ini',
  'C:\\Windows\\win.ini', '..%252fsecret.txt', '%252e%252e%252fsecret.txt', 'inside.txt', 'secret.txt',
  '%', '%zz', 'inside.txt/..', `${encodeFileId('demo', 'inside.txt')}/..`, `${encodeFileId('demo', 'inside.txt')}%2f..`,
];

/** Ids in the id alphabet that must not decode to a servable file. */
const ID_VARIANTS = [
  b64('demo:../secret.txt'), b64('demo:../../secret.txt'), b64('demo:../../../secret.txt'), b64('demo:/etc/passwd'),
  b64('demo:..'), b64('demo:.'), b64('demo:'), b64('demo:sub/inside.txt'), b64('demo:..\\secret.txt'),
  b64('demo:inside.txt\u0000'), b64('demo:inside.txt\u0000.png'), b64('prod:prod-only.txt'), b64('prod:inside.txt'),
  b64('demo:link.txt'), b64('demo:linkdir'), b64('demo:.wharf-upload-1234'), b64('demo:\u2025/secret.txt'),
  b64('demo:%2e%2e/secret.txt'), b64('demo:../Open/inside.txt'), b64('demo:inside.txt '), b64('demo:inside.txt.'),
  b64('Demo:inside.txt'), b64('inside.txt'), b64(':inside.txt'), b64('demo:C:\\secret.txt'),
  `${encodeFileId('demo', 'inside.txt')}=`, `${encodeFileId('demo', 'inside.txt')}A`, encodeFileId('demo', 'inside.txt').slice(0, -1),
  encodeFileId('demo', 'inside.txt').toLowerCase(), 'AAAA', '____', 'x'.repeat(2000),
];

let server: TestServer;
let port: number;
let dir: string;

async function snapshot(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true });
  return entries.filter((name) => !/auth\.db/.test(name)).sort();
}

beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: [{ kind: 'files', routePath: 'files/Open' }] },
    serverSettings: {
      Environment: { ServerName: 'test', AllowedEnvironments: ['demo', 'prod'] },
      RateLimiting: { IpLimit: 100000, TokenLimit: 100000 },
    },
  });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  port = (server.app.server.address() as { port: number }).port;
  const storage = path.join(server.project.root, 'data', 'files');
  dir = path.join(storage, 'demo', 'Open');
  await fs.mkdir(dir, { recursive: true });
  await fs.mkdir(path.join(storage, 'prod', 'Open'), { recursive: true });
  await fs.writeFile(path.join(dir, 'inside.txt'), 'inside');
  await fs.writeFile(path.join(storage, 'prod', 'Open', 'prod-only.txt'), SECRET);
  await fs.writeFile(path.join(storage, 'demo', 'secret.txt'), SECRET);
  await fs.writeFile(path.join(server.project.root, 'secret.txt'), SECRET);
  await fs.symlink(path.join(server.project.root, 'secret.txt'), path.join(dir, 'link.txt'));
  await fs.symlink(server.project.root, path.join(dir, 'linkdir'));
});
afterAll(async () => server.close());

describe('traversal corpus', () => {
  const variants = [...RAW_VARIANTS, ...ID_VARIANTS];

  it('has at least 50 variants', () => {
    expect(variants.length).toBeGreaterThanOrEqual(50);
  });

  it('the genuine id still works (control)', async () => {
    const res = await rawRequest(port, `/api/demo/files/Open/${encodeFileId('demo', 'inside.txt')}`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('inside');
  });

  it.each(['GET', 'HEAD', 'DELETE'])('every variant is a 404 on %s and touches nothing', async (method) => {
    const before = await snapshot(server.project.root);
    const results: string[] = [];
    for (const variant of variants) {
      const res = await rawRequest(port, `/api/demo/files/Open/${variant}`, {
        method,
        headers: { authorization: `Bearer ${server.token}` },
      });
      if (res.status !== 404 || res.body.toString().includes(SECRET)) results.push(`${variant} -> ${res.status}`);
      else if (method !== 'HEAD') expect((res.json() as { error: string }).error).toMatch(/^(File not found\.|Endpoint '.*' not found)$/);
    }
    expect(results).toEqual([]);
    expect(await snapshot(server.project.root)).toEqual(before);
    expect(await fs.readFile(path.join(server.project.root, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(await fs.readFile(path.join(dir, 'inside.txt'), 'utf8')).toBe('inside');
  });

  it('a listing never shows symlinks, directories or temp files', async () => {
    await fs.writeFile(path.join(dir, '.wharf-upload-inflight'), 'partial');
    const res = await rawRequest(port, '/api/demo/files/Open/list', { headers: { authorization: `Bearer ${server.token}` } });
    const names = (res.json() as { value: { fileName: string }[] }).value.map((item) => item.fileName);
    expect(names).toEqual(['inside.txt']);
  });

  it('a FIFO in the storage directory is a 404 at once (was: the open waited for a writer, holding a thread of the file system pool)', async () => {
    const fifo = path.join(dir, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    try {
      const deadline = new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 5 s'), 5000));
      const answer = rawRequest(port, `/api/demo/files/Open/${encodeFileId('demo', 'pipe.txt')}`, { headers: { authorization: `Bearer ${server.token}` } })
        .then((res) => `${res.status} ${res.body.toString()}`);
      expect(await Promise.race([answer, deadline])).toBe('404 {"success":false,"error":"File not found."}');
    } finally {
      // a reader stuck on the FIFO (the old code) gets its writer and ends; O_RDWR never waits on Linux
      await (await fs.open(fifo, 'r+')).close();
      await fs.rm(fifo);
    }
  });
});
