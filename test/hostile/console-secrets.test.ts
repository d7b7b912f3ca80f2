/**
 * Secrets in console answers: a Proxy or Composite `Url` with credentials in it (user information,
 * an `api_key=` parameter) was listed as written by GET /ui/api/endpoints, to every console role
 * (viewers included). Now it is judged by the same redact() as logs and settings dumps:
 * `<CONNECTION_STRING>`; a Url without credentials is listed as it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({
    generated: {
      endpoints: [
        { kind: 'proxy', routePath: 'Partners/Userinfo', overrides: { url: 'https://svc:pa55word@partner.example/api' } },
        { kind: 'proxy', routePath: 'Partners/Keyed', overrides: { url: 'https://partner.example/api?api_key=k-123456' } },
        { kind: 'composite', routePath: 'Partners/Flow', overrides: { url: 'https://:tok@flow.example' } },
        { kind: 'proxy', routePath: 'Partners/Plain', overrides: { url: 'https://partner.example/api?page=1' } },
      ],
    },
    handlers: ECHO_HANDLERS,
  });
});
afterAll(() => server.close());

describe('GET /ui/api/endpoints and Urls with credentials', () => {
  it('lists them masked, others as written', async () => {
    const response = await server.inject({ method: 'GET', url: '/ui/api/endpoints' });
    expect(response.statusCode).toBe(200);
    const urls = Object.fromEntries((response.json() as { proxy: { name: string; url: string }[] }).proxy.map((item) => [item.name, item.url]));
    expect(urls).toEqual({
      Userinfo: '<CONNECTION_STRING>',
      Keyed: '<CONNECTION_STRING>',
      Flow: '<CONNECTION_STRING>',
      Plain: 'https://partner.example/api?page=1',
    });
    expect(response.body).not.toMatch(/pa55word|k-123456|:tok@/);
  });
});

// the request line is written with its URL redacted (logging/redact-url.ts, one list of credential
// parameters with redact()), so the console's log view never holds the values
describe('GET /ui/api/logs and secrets in request URLs', () => {
  it('shows the value of a credential query parameter (RFC 6750 access_token, api_key, pwd, ...) masked in request lines', async () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiI3In0.c2lnbmF0dXJl';
    await server.app.inject({ method: 'GET', url: `/api/demo/Partners/Plain?access_token=${jwt}&page=2` });
    await server.app.inject({ method: 'GET', url: '/api/demo/Partners/Plain?x=1&API_KEY=k-9876543&password=hunter2&pwd=s3cr3t' });
    const response = await server.inject({ method: 'GET', url: '/ui/api/logs?search=Partners/Plain&limit=100' });
    const messages = (response.json() as { logs: { message: string }[] }).logs.map((entry) => entry.message);
    expect(messages.some((message) => message.includes('?access_token=[REDACTED]&page=2'))).toBe(true);
    expect(messages.some((message) => /\?x=1&API_KEY=\[REDACTED\]&password=\S*REDACTED/.test(message))).toBe(true);
    expect(response.body).not.toMatch(/eyJzdWIiOiI3In0|k-9876543|hunter2|s3cr3t/);
  });
});
