/**
 * A SQL write whose body is thousands of bad properties, or a batch of a thousand such rows: every
 * problem became a 422 detail, so 8 MB of request made a 68 MB answer and held the event loop for
 * seconds while it was built (other callers waited). Now one 422 lists at most 50 problems and a
 * last detail says more were found; a property name is echoed at most 100 characters long.
 * Embedded database; nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedTestServer, type SqlTestServer } from '../sql/http-server.js';

let server: SqlTestServer;
const W = '/api/demo/Inventory/Warehouses';

beforeAll(async () => {
  server = await startEmbeddedTestServer();
}, 120_000);
afterAll(async () => server?.close());

const post = (payload: string) =>
  server.app.inject({ method: 'POST', url: W, headers: { authorization: server.authorization, 'content-type': 'application/json' }, payload });
const MORE = { field: 'body', message: 'More than 50 problems; only the first 50 are listed' };
const props = (n: number, from = 0) => Array.from({ length: n }, (_v, i) => `"k${from + i}":1`).join(',');

describe('a write with very many problems: one bounded 422', () => {
  it('5,000 unknown properties: the first 50 and one saying there are more', async () => {
    const res = await post(`{${props(5000)}}`);
    expect(res.statusCode).toBe(422);
    const details = (res.json() as { details: Array<{ field: string }> }).details;
    expect(details).toHaveLength(51);
    expect(details[0]).toEqual({ field: 'k0', message: 'k0 is not an allowed property' });
    expect(details[50]).toEqual(MORE);
  });

  it('exactly 50 problems are all listed, with no summary', async () => {
    const res = await post(`{"Code":"NL-900","Name":"x",${props(50)}}`);
    expect((res.json() as { details: unknown[] }).details).toHaveLength(50);
  });

  it('a batch of 1,000 rows of 100 unknown properties each: 51 details, rows not all validated', async () => {
    const rows = Array.from({ length: 1000 }, () => `{${props(100)}}`).join(',');
    const res = await post(`[${rows}]`);
    expect(res.statusCode).toBe(422);
    const details = (res.json() as { details: Array<{ field: string; message: string }> }).details;
    expect(details).toHaveLength(51);
    expect(details[0]).toEqual({ field: '[0].k0', message: 'Row 0: k0 is not an allowed property' });
    expect(details[50]).toEqual(MORE);
    expect(res.body.length).toBeLessThan(10_000);
  });

  it('a 100,000-character property name is echoed cut to 100 characters', async () => {
    const name = 'p'.repeat(100_000);
    const res = await post(`{"Code":"NL-901","Name":"x","${name}":1}`);
    const shown = `${'p'.repeat(100)}…`;
    expect(res.json()).toEqual({ success: false, error: 'Validation failed', details: [{ field: shown, message: `${shown} is not an allowed property` }] });
  });

  it('nothing was written', async () => {
    const res = await server.app.inject({ method: 'GET', url: `${W}?$filter=startswith(Code,'NL-90')`, headers: { authorization: server.authorization } });
    expect((res.json() as { count: number }).count).toBe(0);
  });
});
