/**
 * The ProxyEndpoints health check through the running server against a real loopback upstream:
 * the network access policy applies to its probes (a blocked target is reported, never called),
 * and the default timeout per endpoint is spec 2's 10 seconds.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../runtime/server.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { TempProject } from '../../runtime/testing/generated-fixture.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { proxy } from '../proxy/proxy-server.js';
import { startUpstream } from '../proxy/upstream-server.js';
import type { Upstream } from '../proxy/upstream-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

let upstream: Upstream;
const opened: { app: FastifyInstance; project: TempProject }[] = [];

beforeAll(async () => {
  upstream = await startUpstream();
});

afterAll(async () => {
  for (const { app, project } of opened) {
    await app.close();
    await project.cleanup();
  }
  await upstream.close();
});

async function healthServer(endpoints: ReturnType<typeof proxy>[], policy?: unknown): Promise<(url: string) => Promise<{ statusCode: number; json: () => unknown }>> {
  const project = await createTempProject({
    generated: { endpoints },
    serverSettings: { Environment: { ServerName: 'health', AllowedEnvironments: ['demo'] }, WebUi: { SeedPassword: 'seed-password-1' } },
    environments: { demo: { Provider: 'embedded' } },
  });
  if (policy !== undefined) await writeFile(path.join(project.environmentsDir, 'network-access-policy.json'), JSON.stringify(policy));
  const app = await buildServer({
    generatedDir: project.generatedDir,
    environmentsDir: project.environmentsDir,
    dataDir: path.join(project.root, 'data'),
    env: { HEALTHCHECK_DISK_WARNING: '0', HEALTHCHECK_DISK_CRITICAL: '0' },
    logger: false,
    handlers: ECHO_HANDLERS,
  });
  opened.push({ app, project });
  const { token } = await gatewayOf(app).access.tokens.create({ username: 'health' });
  return (url) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
}

interface Details {
  status: string;
  checks: { name: string; status: string; description: string; data: Record<string, unknown> }[];
}

describe('ProxyEndpoints health check', () => {
  it('applies the network access policy: a blocked address or host name is reported and never called', async () => {
    const port = new URL(upstream.origin).port;
    const get = await healthServer(
      [
        proxy('Blocked/ByAddress', { url: `http://127.0.0.1:${port}/echo/health-by-address` }, ['GET']),
        proxy('Blocked/ByName', { url: `http://localhost:${port}/echo/health-by-name` }, ['GET']),
        proxy('Blocked/NotAllowed', { url: `http://127.0.0.2:${port}/echo/health-not-allowed` }, ['GET']),
      ],
      { allowedHosts: ['localhost', '127.0.0.1'], blockedIpRanges: ['127.0.0.0/8', '::1/128', '169.254.0.0/16'] },
    );
    const response = await get('/health/details');
    expect(response.statusCode).toBe(200);
    const body = response.json() as Details;
    const blocked = { Status: 'Unhealthy', Error: 'Blocked by the network access policy' };
    expect(body.checks.find((check) => check.name === 'ProxyEndpoints')).toMatchObject({
      status: 'Degraded',
      description: '3 of 3 proxy endpoints are unreachable',
      data: { 'Blocked/ByAddress': blocked, 'Blocked/ByName': blocked, 'Blocked/NotAllowed': blocked },
    });
    for (const hit of ['/echo/health-by-address', '/echo/health-by-name', '/echo/health-not-allowed']) expect(upstream.hits.get(hit)).toBeUndefined();
  });

  it('waits up to 10 seconds per endpoint by default (spec 2): an answer after 5.5 s is reachable', async () => {
    const get = await healthServer([proxy('Slow/Answer', { url: `${upstream.origin}/slow?ms=5500` }, ['GET'])]);
    const response = await get('/health/details');
    const body = response.json() as Details;
    expect(body.checks.find((check) => check.name === 'ProxyEndpoints')).toMatchObject({
      status: 'Healthy',
      data: { 'Slow/Answer': { Status: 'Healthy', StatusCode: 200, ReasonPhrase: 'OK' } },
    });
  }, 30_000);
});
