/**
 * Seeded, bounded fuzz of the read path through the running server (issue 15 "bad input never
 * reaches the database as a 500", issue 18 "every bad input is a 4xx"): generated OData options,
 * keys and QUERY bodies against the embedded database (PGlite) and a real PostgreSQL. Fails on any
 * 5xx, on a body that is not the spec's JSON, and on any response that shows SQL or a stack.
 * Bounded: a fixed number of requests per database and a time cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from '../sql/http-server.js';
import { RequestGenerator } from './odata-generator.js';

let pg: TestPostgres;
let server: SqlTestServer;

beforeAll(async () => {
  pg = await startPostgres();
  server = await startSqlTestServer(pg.url, pg.port + 1, { logger: false });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

/** What a leak of database or runtime internals looks like in a response body. */
const LEAK = /syntax error at or near|relation "|column "[^"]*" does not exist|\bSELECT\b[\s\S]*\bFROM\b|SQLSTATE|\bERROR: |\n\s+at |node_modules|\.ts:\d+/;

async function run(env: string, seed: number, count: number, capMs: number) {
  const gen = new RequestGenerator(seed);
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const started = Date.now();
  let sent = 0;
  for (; sent < count && Date.now() - started < capMs; sent++) {
    const r = gen.request();
    const res = await server.app.inject({
      method: r.method,
      url: `/api/${env}/${r.url}`,
      headers: { authorization: server.authorization, ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(r.body !== undefined ? { payload: r.body } : {}),
    });
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    const text = res.body;
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      failures.push(`${res.statusCode} not JSON: ${r.method} ${r.url}`);
    }
    if (res.statusCode >= 500) failures.push(`${res.statusCode}: ${r.method} ${r.url} ${r.body ?? ''} -> ${text.slice(0, 200)}`);
    else if (res.statusCode >= 400 && (json as { success?: unknown })?.success !== false) failures.push(`${res.statusCode} without the error body: ${r.url}`);
    if (LEAK.test(text)) failures.push(`leak: ${r.method} ${r.url} -> ${text.slice(0, 200)}`);
    if (failures.length >= 20) break;
  }
  return { sent, statuses, failures };
}

describe('generated hostile reads: never a 5xx, never a leak', () => {
  it.each([
    ['embedded (PGlite)', 'demo', 1, 10_000],
    ['PostgreSQL', 'pg', 2, 3_000],
  ])('%s', async (_name, env, seed, count) => {
    const { sent, statuses, failures } = await run(env as string, seed as number, count as number, 150_000);
    expect(failures).toEqual([]);
    // the generator must really reach the database, not only the parser
    expect(statuses.get(200) ?? 0).toBeGreaterThan(sent * 0.05);
    expect(sent).toBeGreaterThan(1000);
  }, 200_000);
});
