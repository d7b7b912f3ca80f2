/**
 * A successful SQL write drops the endpoint's cached reads (response cache on, memory store):
 * read (MISS), read (HIT), write, read (MISS with the new data). A refused write keeps them.
 * The same through two processes sharing Redis is in write-cache-redis.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from './http-server.js';

let pg: TestPostgres;
let server: SqlTestServer;

beforeAll(async () => {
  pg = await startPostgres();
  server = await startSqlTestServer(pg.url, pg.port + 1, { caching: true });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await pg?.stop();
});

const URL = '/api/pg/Inventory/Warehouses/1?$select=City';

function call(method: 'GET' | 'PATCH', url: string, payload?: unknown) {
  return server.app.inject({
    method,
    url,
    headers: { authorization: server.authorization, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
}

describe('cache invalidation on SQL writes', () => {
  it('a write drops the cached reads; a refused write does not', async () => {
    const first = await call('GET', URL);
    expect([first.headers['x-cache'], first.json()]).toEqual(['MISS', { City: 'Rotterdam' }]);
    const second = await call('GET', URL);
    expect([second.headers['x-cache'], second.json()]).toEqual(['HIT', { City: 'Rotterdam' }]);

    const refused = await call('PATCH', '/api/pg/Inventory/Warehouses/1', { Colour: 'red' });
    expect(refused.statusCode).toBe(422);
    expect((await call('GET', URL)).headers['x-cache']).toBe('HIT');

    const written = await call('PATCH', '/api/pg/Inventory/Warehouses/1', { City: 'Delft' });
    expect(written.statusCode).toBe(200);
    const after = await call('GET', URL);
    expect([after.headers['x-cache'], after.json()]).toEqual(['MISS', { City: 'Delft' }]);
  });
});
