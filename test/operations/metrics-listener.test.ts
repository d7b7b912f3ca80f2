/**
 * Metrics:ListenAddress: a second listener that serves GET /metrics with no token (the main port's
 * /metrics still wants one), 404 for anything else, opened by startServer after the main port (a
 * port in use fails the start) and closed with the server; a malformed address fails at start.
 */
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetricsAddress } from '../../runtime/metrics/metrics-listener.js';
import { startServer, type StartedServer } from '../../runtime/start.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTempProject, type TempProject } from '../../runtime/testing/generated-fixture.js';
import { DEFAULT_ENVIRONMENTS } from '../../runtime/testing/test-server.js';
import { freePort } from '../setup/free-port.js';
import { portIsFree } from './server-process.js';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

let project: TempProject;

beforeAll(async () => {
  project = await createTempProject({
    generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Items', methods: ['GET'] }] },
    serverSettings: { Environment: { AllowedEnvironments: ['demo'] } },
    environments: DEFAULT_ENVIRONMENTS,
  });
});
afterAll(async () => project.cleanup());

function start(env: Record<string, string>): Promise<StartedServer> {
  return startServer({
    generatedDir: project.generatedDir,
    environmentsDir: project.environmentsDir,
    dataDir: path.join(project.root, 'data'),
    env: { RateLimiting__Enabled: 'false', ...env },
    logger: false,
    handlers: ECHO_HANDLERS,
    port: 0,
  });
}

describe('Metrics:ListenAddress', () => {
  it('serves /metrics without a token on its own address, 404 elsewhere; the main port still asks for a token; closes with the server', async () => {
    const port = await freePort();
    const server = await start({ Metrics__ListenAddress: `127.0.0.1:${port}` });
    try {
      const { token } = await gatewayOf(server.app).access.tokens.create({ username: 'caller' });
      expect((await fetch(`${server.url}/api/demo/Inventory/Items`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const families = parsePrometheusText(await scrape.text());
      expect(sampleValue(families, 'wharf_http_requests_total', { endpoint: 'sql:Inventory/Items', method: 'GET', status: '200' })).toBe(1);
      const other = await fetch(`http://127.0.0.1:${port}/api/demo/Inventory/Items`);
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({ success: false, error: 'Only GET /metrics is served on this address.' });
      expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    } finally {
      await server.close();
    }
    expect(await portIsFree(port)).toBe(true);
  });

  it('a port in use fails the start (and frees the main port)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(start({ Metrics__ListenAddress: `127.0.0.1:${port}` })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });

  it('parses host:port and [v6]:port; refuses anything else with the setting named', () => {
    expect(parseMetricsAddress('')).toBeNull();
    expect(parseMetricsAddress('0.0.0.0:9464')).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(parseMetricsAddress('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(parseMetricsAddress('metrics.internal:9464')).toEqual({ host: 'metrics.internal', port: 9464 });
    for (const bad of ['9464', '127.0.0.1', '127.0.0.1:0', '127.0.0.1:70000', '::1:9464', 'http://x:1']) {
      expect(() => parseMetricsAddress(bad)).toThrow(`Setting Metrics:ListenAddress must be host:port such as 127.0.0.1:9464 (got '${bad}')`);
    }
  });

  it('a malformed address fails the start with that message', async () => {
    await expect(start({ Metrics__ListenAddress: 'nine' })).rejects.toThrow("Setting Metrics:ListenAddress must be host:port such as 127.0.0.1:9464 (got 'nine')");
  });
});
