/**
 * JSON request bodies the gateway cannot read as sent, through the running server (SQL write,
 * Webhook, QUERY): a body with a `Content-Encoding` (gzip from a client that compresses, or any
 * coding) was parsed as if it were plain text and answered 400 with its binary bytes quoted in the
 * message; now 415 naming the coding (RFC 9110 §15.5.16), nothing stored. And V8's excerpt of a
 * longer broken body (`"notjson-and"... is not valid JSON`) no longer reaches the `error` text:
 * only what is wrong and where, like a short one. `identity` is no coding: accepted.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedTestServer, type SqlTestServer } from '../sql/http-server.js';

let server: SqlTestServer;
const W = '/api/demo/Inventory/Warehouses';
const HOOK = '/api/demo/Integrations/PaymentEvents/payment-failed';

beforeAll(async () => {
  server = await startEmbeddedTestServer();
}, 120_000);
afterAll(async () => server?.close());

function send(method: 'POST' | 'QUERY' | 'GET', url: string, payload?: string | Buffer, headers: Record<string, string> = {}) {
  return server.app.inject({
    method,
    url,
    headers: { authorization: server.authorization, ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
}

const count = async (url: string) => Number((await send('GET', `${url}?$count=true&$top=0`)).headers['x-total-records']);

describe('a coded JSON body: 415, nothing stored', () => {
  const body = '{"Code":"GZ-001","Name":"compressed"}';
  it.each([
    ['gzip (really compressed)', 'gzip', gzipSync(body)],
    ['br on plain text', 'br', Buffer.from(body)],
    ['a list of codings', 'gzip, identity', gzipSync(body)],
    ['an unknown coding', 'x-made-up', Buffer.from(body)],
  ])('%s', async (_name, coding, payload) => {
    const before = await count(W);
    for (const url of [W, HOOK]) {
      const res = await send('POST', url, payload, { 'content-encoding': coding });
      expect(res.json()).toEqual({ success: false, error: `Content-Encoding '${coding}' is not supported.` });
      expect(res.statusCode).toBe(415);
    }
    const query = await send('QUERY', W, payload, { 'content-encoding': coding });
    expect(query.statusCode).toBe(415);
    expect(await count(W)).toBe(before);
  });

  it('identity, or an empty header, is no coding: stored', async () => {
    const res = await send('POST', W, body, { 'content-encoding': 'Identity' });
    expect(res.statusCode).toBe(201);
    const empty = await send('POST', W, '{"Code":"GZ-002","Name":"plain"}', { 'content-encoding': ' ' });
    expect(empty.statusCode).toBe(201);
  });
});

describe('a broken JSON body: what and where, never the body quoted back', () => {
  it.each([
    ['short', 'notjson', "Invalid JSON body: Unexpected token 'o' at line 1, column 2."],
    ['long, broken at the start', `notjson${'-and-more'.repeat(20)}`, "Invalid JSON body: Unexpected token 'o' at line 1, column 2."],
    ['long, broken in the middle', `{"Code":"NL-009",${' '.repeat(40)}x "Name":"${'n'.repeat(40)}"}`, 'Invalid JSON body: Expected double-quoted property name at line 1, column 58.'],
    ['binary', '\u001f\u008b\b\u0000\u0000\u0000\u0000\u0000\u0000\u0003abcdefghijklmnop', "Invalid JSON body: Unexpected token '\u001f' at line 1, column 1."],
  ])('%s', async (_name, payload, error) => {
    for (const url of [W, HOOK]) {
      const res = await send('POST', url, payload);
      expect(res.json()).toEqual({ success: false, error });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('a JSON body that is not UTF-8 (RFC 8259 §8.1): 400, nothing stored (was: its bytes stored as U+FFFD, a Webhook payload not as received)', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  it.each([
    ['Latin-1 é', latin1('{"Code":"LU-001","Name":"Caf\u00e9"}')],
    ['a lone continuation byte', Buffer.concat([Buffer.from('{"Code":"LU-002","Name":"a'), Buffer.from([0x80]), Buffer.from('"}')])],
    ['an encoded surrogate (CESU-8)', Buffer.concat([Buffer.from('{"Code":"LU-003","Name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])],
  ])('%s', async (_name, payload) => {
    const before = await count(W);
    for (const url of [W, HOOK]) {
      const res = await send('POST', url, payload);
      expect(res.json()).toEqual({ success: false, error: 'Invalid JSON body: the body is not valid UTF-8.' });
      expect(res.statusCode).toBe(400);
    }
    expect(await count(W)).toBe(before);
  });

  it('U+FFFD sent as UTF-8 is a character like any other: stored', async () => {
    const res = await send('POST', W, Buffer.from('{"Code":"LU-004","Name":"\ufffd"}', 'utf8'));
    expect(res.statusCode).toBe(201);
    const hook = await send('POST', HOOK, Buffer.from('{"note":"\ufffd"}', 'utf8'));
    expect(hook.statusCode).toBe(200);
  });
});

