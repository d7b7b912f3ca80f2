/**
 * Files with several instances (docs/files.md): two servers, each with its own data folder, on one
 * FileStorage:StorageDirectory. A file uploaded on one is listed, downloaded and deleted on the
 * other; an upload in progress on one survives a third instance starting on the same directory
 * (its startup sweep leaves temp files that are still being written).
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFileId } from '../../runtime/files/file-id.js';
import { buildServer } from '../../runtime/server.js';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';
import { multipartBody, multipartHeaders, rawRequest } from './http-client.js';

const ENDPOINTS = [{ kind: 'files' as const, routePath: 'files/Open' }];
let shared: string;
const servers: TestServer[] = [];
const ports: number[] = [];

beforeAll(async () => {
  shared = await mkdtemp(path.join(tmpdir(), 'wharf-shared-files-'));
  for (let i = 0; i < 2; i++) {
    const server = await createTestServer({
      generated: { endpoints: ENDPOINTS },
      serverSettings: { Environment: { AllowedEnvironments: ['demo'] }, FileStorage: { StorageDirectory: shared } },
    });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    servers.push(server);
    ports.push((server.app.server.address() as { port: number }).port);
  }
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await rm(shared, { recursive: true, force: true });
});

const call = (i: number, pathname: string, method = 'GET') =>
  rawRequest(ports[i]!, pathname, { method, headers: { authorization: `Bearer ${servers[i]!.token}` } });

describe('two instances on one storage directory', () => {
  it('a file uploaded on A is listed and downloaded on B; deleted on B, it is gone on A', async () => {
    const body = multipartBody('file', 'shared.txt', 'from A');
    const uploaded = await rawRequest(ports[0]!, '/api/demo/files/Open', { method: 'POST', headers: multipartHeaders(servers[0]!.token, body.length), body });
    expect(uploaded.status).toBe(201);
    const url = `/api/demo/files/Open/${encodeFileId('demo', 'shared.txt')}`;
    const listed = await call(1, '/api/demo/files/Open/list');
    expect((listed.json() as { value: { fileName: string }[] }).value.map((f) => f.fileName)).toEqual(['shared.txt']);
    const downloaded = await call(1, url);
    expect([downloaded.status, downloaded.body.toString()]).toEqual([200, 'from A']);
    expect((await call(1, url, 'DELETE')).status).toBe(200);
    expect((await call(0, url)).status).toBe(404);
  });

  it('an upload in progress on A survives a third instance starting on the same directory', async () => {
    const content = 'x'.repeat(64 * 1024);
    const body = multipartBody('file', 'slow.txt', content);
    const dir = path.join(shared, 'demo');
    const temps = async () => (await fs.readdir(dir, { recursive: true })).filter((name) => path.basename(String(name)).startsWith('.wharf-upload-'));
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port: ports[0], path: '/api/demo/files/Open', method: 'POST', headers: multipartHeaders(servers[0]!.token, body.length) }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      request.on('error', reject);
      request.write(body.subarray(0, body.length / 2));
      void (async () => {
        while ((await temps().catch(() => [])).length === 0) await new Promise((r) => setTimeout(r, 10));
        // a third instance starts on the same directory while A writes its temp file
        const third = await buildServer({
          generatedDir: servers[1]!.project.generatedDir,
          environmentsDir: servers[1]!.project.environmentsDir,
          dataDir: path.join(servers[1]!.project.root, 'data'),
          env: {},
          logger: false,
        });
        await third.close();
        request.end(body.subarray(body.length / 2));
      })().catch(reject);
    });
    const { status, text } = await answer;
    expect(status, text).toBe(201);
    const downloaded = await call(1, `/api/demo/files/Open/${encodeFileId('demo', 'slow.txt')}`);
    expect([downloaded.status, downloaded.body.length]).toEqual([200, content.length]);
  });
});
