/**
 * GET /ui/api/logs through the real buildServer: the server's own pino lines, newest first, paged
 * and filtered per spec; tokens, passwords and connection strings never appear in an entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { postSignIn } from './console-client.js';

interface Page {
  page: number;
  total_pages: number;
  logs: { timestamp: string; level: string; message: string; source: string }[];
}

describe('GET /ui/api/logs', () => {
  let server: TestServer;
  let oneTimePassword: string;

  beforeAll(async () => {
    server = await createTestServer({ generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] }, handlers: ECHO_HANDLERS });
    const line = server.logs.lines().find((entry) => String(entry['msg']).startsWith('Created the first console administrator'));
    oneTimePassword = /one-time password (\S+) /.exec(String(line?.['msg']))![1]!;
  });
  afterAll(() => server.close());

  const logs = async (query = ''): Promise<{ status: number; body: unknown; text: string }> => {
    const response = await server.inject({ method: 'GET', url: `/ui/api/logs${query}` });
    return { status: response.statusCode, body: response.json(), text: response.body };
  };

  it('never shows tokens, passwords or connection strings', async () => {
    await postSignIn(server.app, 'admin', 'wrong-password-attempt');
    await server.inject({ method: 'GET', url: '/api/demo/Inventory/Products' });
    server.app.log.warn(`retrying with Bearer ${server.token} on postgres://app:pg-secret-1@db/x and Server=db;Password=mssql-secret-2;`);
    const { status, body, text } = await logs('?limit=100');
    expect(status).toBe(200);
    for (const secret of [oneTimePassword, server.token, 'pg-secret-1', 'mssql-secret-2', 'wrong-password-attempt', 'hunter2-prod']) {
      expect(text).not.toContain(secret);
    }
    const messages = (body as Page).logs.map((entry) => entry.message);
    expect(messages).toContain('retrying with Bearer <REDACTED> on <CONNECTION_STRING> and Server=db;Password=<REDACTED>;');
    expect(messages.some((message) => message.includes('with the one-time password <REDACTED> '))).toBe(true);
    expect(messages).toContain('console sign-in failed');
  });

  it('entries are newest first in the spec shape; level and search filter; pages', async () => {
    const { body } = await logs('?limit=100');
    const page = body as Page;
    expect(page.page).toBe(1);
    expect(page.logs[0]).toEqual({
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: expect.stringMatching(/^(Debug|Information|Warning|Error)$/),
      message: expect.any(String),
      source: expect.any(String),
    });
    const times = page.logs.map((entry) => entry.timestamp);
    expect([...times].sort().reverse()).toEqual(times);

    const warnings = (await logs('?level=Warning&limit=100')).body as Page;
    expect(warnings.logs.length).toBeGreaterThan(0);
    expect(new Set(warnings.logs.map((entry) => entry.level))).toEqual(new Set(['Warning']));
    const searched = (await logs('?search=RETRYING%20WITH')).body as Page;
    expect(searched.logs.map((entry) => entry.level)).toEqual(['Warning']);

    const total = page.logs.length;
    const paged = (await logs('?limit=2&page=2')).body as Page;
    // every request adds its own request lines, so the total only grows
    expect(paged.page).toBe(2);
    expect(paged.total_pages).toBeGreaterThanOrEqual(Math.ceil(total / 2));
    expect(paged.logs).toHaveLength(2);
    const beyond = (await logs('?limit=100&page=99')).body as Page;
    expect(beyond.logs).toEqual([]);
  });

  it('shows bidi controls in a message as inert \\u escapes, and keeps the stored line as written', async () => {
    const bidi = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
    server.app.log.warn(`denied GET /files/invoice-${bidi.join('')}fdp.exe`);
    const { status, body, text } = await logs('?search=invoice-&limit=100');
    expect(status).toBe(200);
    expect([...text].filter((c) => bidi.includes(c))).toEqual([]);
    const escaped = bidi.map((c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`).join('');
    expect((body as Page).logs.map((entry) => entry.message)).toEqual([`denied GET /files/invoice-${escaped}fdp.exe`]);
    expect(server.logs.lines().some((line) => line['msg'] === `denied GET /files/invoice-${bidi.join('')}fdp.exe`)).toBe(true);
  });

  it.each([
    ['?limit=101', { error: 'limit must be a whole number from 1 to 100', field: 'limit' }],
    ['?page=0', { error: 'page must be a whole number from 1 to 1000000', field: 'page' }],
    ['?level=Loud', { error: 'level must be one of Debug, Information, Warning, Error', field: 'level' }],
  ])('%s -> 400', async (query, want) => {
    const { status, body } = await logs(query);
    expect(status).toBe(400);
    expect(body).toEqual(want);
  });
});
