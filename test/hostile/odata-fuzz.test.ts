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
import { sendAndCheck } from './fuzz-answer.js';
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

async function run(env: string, seed: number, count: number, capMs: number) {
  const gen = new RequestGenerator(seed);
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const started = Date.now();
  let sent = 0;
  for (; sent < count && Date.now() - started < capMs && failures.length < 20; sent++) {
    const status = await sendAndCheck(server.app, server.authorization, env, gen.request(), failures);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
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
