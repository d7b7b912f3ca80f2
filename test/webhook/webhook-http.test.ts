/**
 * Webhook endpoints through the running server on a real PostgreSQL and on the embedded PGlite
 * demo database: Integrations/PaymentEvents stores into integrations."WebhookEvents"
 * (ids payment-succeeded, payment-failed, refund-issued). Status, literal JSON, and the stored
 * record read back from the table.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEnvironment } from '../../runtime/settings/environments.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from '../sql/http-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

let db: TestPostgres;
let server: SqlTestServer;

beforeAll(async () => {
  db = await startPostgres();
  server = await startSqlTestServer(db.url, db.port + 1);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await db?.stop();
});

const PATH = 'Integrations/PaymentEvents';

async function send(env: string, method: string, path: string, payload?: string, contentType: string | null = 'application/json') {
  return server.app.inject({
    method: method as 'POST',
    url: `/api/${env}/${path}`,
    headers: { authorization: server.authorization, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload === undefined ? {} : { payload }),
  });
}

const RAW = '{ "event": "paid",\n  "amount": 12.50, "nested": {"a": [1, 2]} }';

const refused: Array<[string, { method: string; path: string; payload?: string; contentType?: string | null; status: number; body: unknown; allow?: string }]> = [
  ['unknown id', { method: 'POST', path: `${PATH}/payment-refunded`, payload: '{}', status: 404, body: { success: false, error: "Webhook ID 'payment-refunded' is not configured." } }],
  ['missing id', { method: 'POST', path: PATH, payload: '{}', status: 400, body: { success: false, error: 'Webhook id is required: POST to the endpoint path followed by /<id>.' } }],
  ['not JSON', { method: 'POST', path: `${PATH}/payment-failed`, payload: 'a=1', contentType: 'application/x-www-form-urlencoded', status: 415,
    body: { success: false, error: "Content-Type 'application/x-www-form-urlencoded' is not supported." } }],
  ['invalid JSON', { method: 'POST', path: `${PATH}/payment-failed`, payload: '{"a":', status: 400, body: { success: false, error: 'Invalid JSON body: Unexpected end of input at line 1, column 6.' } }],
  ['no body', { method: 'POST', path: `${PATH}/payment-failed`, contentType: null, status: 400, body: { success: false, error: 'Webhook payload must be JSON.' } }],
  // Content-Type application/json with an empty body: the webhook text of docs/webhooks.md, not the generic one
  ['empty JSON body', { method: 'POST', path: `${PATH}/payment-failed`, payload: '', status: 400, body: { success: false, error: 'Webhook payload must be JSON.' } }],
  ['whitespace JSON body', { method: 'POST', path: `${PATH}/payment-failed`, payload: ' \n', status: 400, body: { success: false, error: 'Webhook payload must be JSON.' } }],
  // V8 names the `o`; the column is the `o`'s (2), not the token's start (1)
  ['not JSON at all', { method: 'POST', path: `${PATH}/payment-failed`, payload: 'notjson', status: 400, body: { success: false, error: "Invalid JSON body: Unexpected token 'o' at line 1, column 2." } }],
  ['GET is 405', { method: 'GET', path: `${PATH}/payment-failed`, status: 405, allow: 'POST, OPTIONS', body: { success: false, error: "Method 'GET' is not allowed for this endpoint." } }],
  ['QUERY is 405', { method: 'QUERY', path: `${PATH}/payment-failed`, payload: '{}', status: 405, allow: 'POST, OPTIONS', body: { success: false, error: "Method 'QUERY' is not allowed for this endpoint." } }],
  ['PUT is 405', { method: 'PUT', path: `${PATH}/payment-failed`, payload: '{}', status: 405, allow: 'POST, OPTIONS', body: { success: false, error: "Method 'PUT' is not allowed for this endpoint." } }],
];

async function storedRows(env: string): Promise<unknown[]> {
  if (env === 'pg') {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query('SELECT "Id", "WebhookId", "Payload", "ReceivedAt" FROM integrations."WebhookEvents" ORDER BY "Id"')).rows;
    } finally {
      await client.end();
    }
  }
  const driver = await server.drivers.get('demo', findEnvironment(gatewayOf(server.app).settings.environments, 'demo')!);
  return driver.query('SELECT "Id", "WebhookId", "Payload", "ReceivedAt" FROM integrations."WebhookEvents" ORDER BY "Id"', []);
}

describe.each(['pg', 'demo'])('webhooks on %s', (env) => {
  it('stores the raw JSON text, the configured id and the UTC time; 200 with the new id', async () => {
    const before = Date.now();
    const res = await send(env, 'POST', `${PATH}/PAYMENT-Succeeded`, RAW);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { id: number };
    expect(body).toEqual({ success: true, message: 'Webhook processed successfully.', result: null, id: expect.any(Number) });
    const rows = (await storedRows(env)) as Array<{ Id: number; WebhookId: string; Payload: string; ReceivedAt: string }>;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ Id: body.id, WebhookId: 'payment-succeeded', Payload: RAW });
    const at = new Date(rows[0]!.ReceivedAt).getTime();
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it.each(refused)('%s: refused, nothing stored', async (_name, c) => {
    const res = await send(env, c.method, c.path, c.payload, c.contentType === undefined ? 'application/json' : c.contentType);
    expect(res.statusCode).toBe(c.status);
    expect(res.json()).toEqual(c.body);
    if (c.allow) expect(res.headers['allow']).toBe(c.allow);
    expect(await storedRows(env)).toHaveLength(1);
  });
});
