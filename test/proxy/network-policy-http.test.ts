/** environments/network-access-policy.json through the running server: allow-list and resolved addresses. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../runtime/server.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { TempProject } from '../../runtime/testing/generated-fixture.js';
import { proxy } from './proxy-server.js';
import { startUpstream } from './upstream-server.js';
import type { Upstream } from './upstream-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

let upstream: Upstream;
let project: TempProject;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  upstream = await startUpstream();
  const port = new URL(upstream.origin).port;
  project = await createTempProject({
    generated: {
      endpoints: [
        proxy('ByName', { url: `http://localhost:${port}/echo/x` }, ['GET']),
        proxy('ByAddress', { url: `http://127.0.0.1:${port}/echo/x` }, ['GET']),
        proxy('NotAllowed', { url: `http://127.0.0.2:${port}/echo/x` }, ['GET']),
      ],
    },
    serverSettings: { Environment: { AllowedEnvironments: ['demo'] }, RateLimiting: { Enabled: false }, Caching: { Enabled: false } },
    environments: { demo: { Provider: 'embedded' } },
  });
  // localhost is an allowed host name, but what it resolves to (127.0.0.1 / ::1) is blocked
  await writeFile(
    path.join(project.environmentsDir, 'network-access-policy.json'),
    JSON.stringify({ allowedHosts: ['localhost', '127.0.0.1'], blockedIpRanges: ['127.0.0.0/8', '::1/128', '169.254.0.0/16'] }),
  );
  app = await buildServer({ generatedDir: project.generatedDir, environmentsDir: project.environmentsDir, dataDir: path.join(project.root, 'data'), env: {}, logger: false });
  token = (await gatewayOf(app).access.tokens.create({ username: 'policy' })).token;
});

afterAll(async () => {
  await app.close();
  await project.cleanup();
  await upstream.close();
});

const blocked = { success: false, error: 'Request blocked due to security restrictions' };

describe('network access policy file', () => {
  it.each([
    ['a host name whose resolved address is blocked', 'ByName'],
    ['a literal address in a blocked range', 'ByAddress'],
    ['a host outside allowedHosts', 'NotAllowed'],
  ])('refuses %s with 403 and never reaches the upstream', async (_name, endpoint) => {
    const before = upstream.hits.get('/echo/x') ?? 0;
    const res = await app.inject({ method: 'GET', url: `/api/demo/${endpoint}`, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(blocked);
    expect(upstream.hits.get('/echo/x') ?? 0).toBe(before);
  });
});
