/**
 * The request log through the real buildServer: one line per request (fastify's two are off),
 * credential-looking query parameters and anything shaped like a token redacted from every URL
 * that reaches the log, a refused request's code on its line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: [{ kind: 'proxy', routePath: 'Weather' }] },
    serverSettings: { Environment: { AllowedEnvironments: ['demo'] } },
  });
});
afterAll(() => server?.app.close());

function linesOf(reqId: string): Record<string, unknown>[] {
  return server.logs.lines().filter((line) => line['reqId'] === reqId);
}

describe('request log', () => {
  it('a served request: exactly one info line with method, URL, status and time', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/health/live?probe=1' });
    expect(response.statusCode).toBe(200);
    const reqId = String(server.logs.lines().find((l) => l['url'] === '/health/live?probe=1')?.['reqId']);
    const lines = linesOf(reqId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, method: 'GET', url: '/health/live?probe=1', statusCode: 200 });
    expect(lines[0]!['msg']).toMatch(/^GET \/health\/live\?probe=1 200 \d+(\.\d)? ms$/);
  });

  it('the gateway writes the line from its template (request-line.ts) with the keys in pino order, and a 5xx with its error through pino', async () => {
    // pino's own serializer is not used for the line: its asJson is never reached for it
    let asJson: symbol | undefined;
    for (let proto: object | null = server.app.log; proto !== null && asJson === undefined; proto = Object.getPrototypeOf(proto) as object | null) {
      asJson = Object.getOwnPropertySymbols(proto).find((symbol) => symbol.description === 'pino.asJson');
    }
    expect(asJson, "pino's serializer on the gateway's logger").toBeDefined();
    const log = server.app.log as unknown as Record<symbol, (...args: unknown[]) => string>;
    const original = log[asJson!]!;
    let serialized = 0;
    log[asJson!] = function (this: unknown, ...args: unknown[]) {
      serialized += 1;
      return original.apply(this, args);
    };
    try {
      const before = server.logs.chunks.length;
      expect((await server.app.inject({ method: 'GET', url: '/health/live?q=%22x%22' })).statusCode).toBe(200);
      const written = server.logs.chunks.slice(before).join('');
      expect(serialized, 'lines pino serialized for one request').toBe(0);
      const line = JSON.parse(written) as Record<string, unknown>;
      expect(Object.keys(line)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'url', 'statusCode', 'responseTime', 'msg']);
      expect(line).toMatchObject({ level: 30, method: 'GET', url: '/health/live?q=%22x%22', statusCode: 200, pid: process.pid });
    } finally {
      log[asJson!] = original;
    }
  });

  const tokenLike = `whf_0123456789ab_${'s'.repeat(43)}`;
  const cases: Array<[string, { url: string; logged: string }]> = [
    ['access_token', { url: `/api/demo/Weather?access_token=${tokenLike}&$top=1`, logged: '/api/demo/Weather?access_token=[REDACTED]&$top=1' }],
    ['token', { url: '/api/demo/Weather?token=plain-secret-1', logged: '/api/demo/Weather?token=[REDACTED]' }],
    ['api_key', { url: '/api/demo/Weather?api_key=plain-secret-2', logged: '/api/demo/Weather?api_key=[REDACTED]' }],
    ['token format in any parameter', { url: `/api/demo/Weather?q=${tokenLike}`, logged: '/api/demo/Weather?q=[REDACTED]' }],
    ['token format in the path of a 404', { url: `/nowhere/${tokenLike}`, logged: '/nowhere/[REDACTED]' }],
  ];
  it.each(cases)('%s: redacted from the one line of a refused request', async (_name, { url, logged }) => {
    const before = server.logs.chunks.length;
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    const written = server.logs.chunks.slice(before).join('');
    for (const secret of [tokenLike, 'plain-secret-1', 'plain-secret-2']) expect(written).not.toContain(secret);
    const lines = written.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, url: logged, statusCode: response.statusCode, code: expect.any(String) });
  });
});
