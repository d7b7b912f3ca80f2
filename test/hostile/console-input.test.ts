/**
 * Malformed input to the console API answered 500 (a stack trace in the log, the generic body):
 * a query parameter of GET /ui/api/logs given twice (fastify's parser makes it an array),
 * `POST /ui/api/endpoints/{type}/validate` with `{type}` `__proto__` or `constructor` (looked up
 * on Object's prototype), and a body or `content` nested thousands of levels deep (the validator
 * and JSON.stringify overflowed the stack). Each is now the console's 400 naming what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { signIn, type ConsoleSession } from '../admin/console-client.js';

const SEED = 'demo-password-1';
let server: TestServer;
let admin: ConsoleSession;

beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
    serverSettings: { Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] }, WebUi: { SeedPassword: SEED } },
  });
  admin = await signIn(server.app, 'admin', SEED);
});
afterAll(() => server.close());

const write = (url: string, text: string) =>
  server.app.inject({ method: 'POST', url, payload: text, headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' } });

describe('GET /ui/api/logs with a parameter given twice', () => {
  it.each(['level', 'search', 'page', 'limit'])('%s: 400 naming it', async (name) => {
    const response = await admin.request('GET', `/ui/api/logs?${name}=1&${name}=2`);
    expect(response.json()).toEqual({ error: `${name} given more than once`, field: name });
    expect(response.statusCode).toBe(400);
  });

  it('once, each still works', async () => {
    const response = await admin.request('GET', '/ui/api/logs?level=Information&search=sign-in&page=1&limit=5');
    expect(response.statusCode).toBe(200);
  });
});

describe('POST /ui/api/endpoints/{type}/validate', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('type %s: 400 Unknown endpoint type', async (type) => {
    const response = await write(`/ui/api/endpoints/${type}/validate`, '{"content":{}}');
    expect(response.json()).toEqual({ error: `Unknown endpoint type: ${type}` });
    expect(response.statusCode).toBe(400);
  });

  it('content as an object nested 20,000 deep: 400 before parsing', async () => {
    const response = await write('/ui/api/endpoints/sql/validate', `{"content":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`);
    expect(response.json()).toEqual({ error: 'Invalid JSON body: JSON is nested deeper than 64 levels.' });
    expect(response.statusCode).toBe(400);
  });

  it.each([
    ['objects', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`],
    ['unclosed arrays', '['.repeat(5000)],
  ])('content as a string of %s nested thousands deep: the build\'s json-syntax verdict, no crash', async (_name, content) => {
    const response = await write('/ui/api/endpoints/sql/validate', JSON.stringify({ content }));
    expect(response.statusCode).toBe(200);
    const body = response.json() as { valid: boolean; errors: string[] };
    expect(body.valid).toBe(false);
    expect(body.errors).toEqual([expect.stringMatching(/^Invalid JSON: objects and arrays are nested deeper than 100 levels at line 1, column (101|501)$/)]);
  });

  it('a body nested deeper than 64 levels on any console write is the same 400; 64 levels still parse', async () => {
    const deep = await server.app.inject({
      method: 'PUT',
      url: '/ui/api/settings',
      payload: `{"x":${'['.repeat(64)}${']'.repeat(64)}}`,
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' },
    });
    expect(deep.json()).toEqual({ error: 'Invalid JSON body: JSON is nested deeper than 64 levels.' });
    const fine = await write('/ui/api/endpoints/sql/validate', JSON.stringify({ content: JSON.parse(`${'{"a":'.repeat(63)}1${'}'.repeat(63)}`) }));
    expect(fine.statusCode).toBe(200);
    expect((fine.json() as { valid: boolean }).valid).toBe(false);
    const poisoned = await write('/ui/api/endpoints/sql/validate', '{"content":{"__proto__":{"x":1}}}');
    expect(poisoned.json()).toEqual({ error: 'Invalid JSON body: the body could not be parsed.' });
  });
});

describe('a failed sign-in with a huge username', () => {
  it('is the usual 401 and logs at most 100 characters of it (a 5 MB username was logged whole)', async () => {
    const csrf = (await server.app.inject({ method: 'GET', url: '/ui/api/auth/csrf' })).json() as { csrf: string };
    const username = 'u'.repeat(5_000_000);
    const response = await server.app.inject({
      method: 'POST',
      url: '/ui/api/auth',
      headers: { cookie: `gateway_csrf=${csrf.csrf}` },
      payload: { username, password: 'whatever-password', csrf: csrf.csrf },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Unauthorized', message: 'Invalid username or password.' });
    const failed = server.logs.lines().filter((line) => line['msg'] === 'console sign-in failed');
    expect(failed.at(-1)?.['username']).toBe(`${'u'.repeat(100)}…`);
    expect(Math.max(...server.logs.text().split('\n').map((line) => line.length))).toBeLessThan(10_000);
  });
});

describe('Content-Type: application/json without a body', () => {
  const json = { cookie: '', 'x-csrf-token': '', 'content-type': 'application/json' };
  it('DELETE /ui/api/tokens/{id} and POST .../rotate take no body: they work (was 400 "Request body is empty")', async () => {
    const created = await server.inject({ method: 'POST', url: '/ui/api/tokens', payload: { username: 'empty-body' } });
    expect(created.statusCode).toBe(201);
    const rows = (await server.inject({ method: 'GET', url: '/ui/api/tokens' })).json() as { id: number; username: string }[];
    const id = rows.find((row) => row.username === 'empty-body')!.id;
    const headers = { ...json, cookie: admin.cookie, 'x-csrf-token': admin.csrf };
    const rotated = await server.app.inject({ method: 'POST', url: `/ui/api/tokens/${id}/rotate`, payload: '', headers });
    expect(rotated.statusCode).toBe(200);
    const next = (rotated.json() as { token: { id: number } }).token.id;
    const revoked = await server.app.inject({ method: 'DELETE', url: `/ui/api/tokens/${next}`, payload: ' \n', headers });
    expect(revoked.json()).toEqual({ ok: true });
  });

  it('a route that needs a body says so: 400 The body must be a JSON object, nothing created', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/ui/api/tokens', payload: '', headers: { ...json, cookie: admin.cookie, 'x-csrf-token': admin.csrf } });
    expect(response.json()).toEqual({ error: 'The body must be a JSON object' });
    expect(response.statusCode).toBe(400);
  });
});
