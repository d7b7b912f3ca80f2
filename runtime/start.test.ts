/** startServer over a real socket: listens on loopback, answers, closes; raw `..` never routes. */
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './start.js';
import type { StartedServer } from './start.js';
import { createTempProject } from './testing/generated-fixture.js';
import type { TempProject } from './testing/generated-fixture.js';
import { gatewayOf } from './gateway-handle.js';

function rawGet(url: string, rawPath: string, token?: string): Promise<{ status: number; body: string }> {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  return new Promise((resolve, reject) => {
    const req = request(`${url}${rawPath}`, { method: 'GET', path: rawPath, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startServer', () => {
  let project: TempProject;
  let started: StartedServer;
  let token: string;
  beforeAll(async () => {
    project = await createTempProject({
      generated: { endpoints: [{ kind: 'sql', routePath: 'WMS/Bins' }] },
      serverSettings: { Environment: { AllowedEnvironments: ['demo'] } },
      environments: { demo: { Provider: 'embedded' } },
    });
    started = await startServer({
      port: 0,
      host: '127.0.0.1',
      generatedDir: project.generatedDir,
      environmentsDir: project.environmentsDir,
      dataDir: path.join(project.root, 'data'),
      env: {},
      logger: false,
    });
    token = (await gatewayOf(started.app).access.tokens.create({ username: 'socket' })).token;
  });
  afterAll(async () => {
    await started.close();
    await project.cleanup();
  });

  it('listens on loopback and reports its URL', async () => {
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await rawGet(started.url, '/health/live');
    expect(response).toEqual({ status: 200, body: 'Alive' });
  });

  it.each([
    ['/api/demo/../demo/WMS/Bins', "Invalid path segment: '..' is not allowed."],
    ['/api/demo/WMS/./Bins', "Invalid path segment: '.' is not allowed."],
    ['/api/demo/%2e%2e/WMS/Bins', "Invalid path segment: '%2e%2e' is not allowed."],
  ])('raw %s is refused', async (rawPath, error) => {
    const response = await rawGet(started.url, rawPath, token);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ success: false, error });
  });

  it('asks for a token on /api over the socket too', async () => {
    const response = await rawGet(started.url, '/api/demo/WMS/Bins');
    expect(response).toEqual({ status: 401, body: '{"success":false,"error":"Authentication required"}' });
  });
});
