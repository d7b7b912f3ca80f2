/**
 * `$apply` result field names a caller chooses (the aliases) against the names the response
 * really has: an alias `__proto__` (assigned to a row object, the value silently vanished), an
 * alias that a grouping column becomes through `Rename` (Sales/Orders renames Status to
 * OrderStatus: one of the two values vanished), an alias that `Remove` drops or `Mask` blanks. Each
 * is a 400 before any SQL, on SQL (embedded database) and Static endpoints alike, and the honest
 * spellings still answer.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';
import { startEmbeddedTestServer, type SqlTestServer } from '../sql/http-server.js';

let sql: SqlTestServer;
let files: TestServer;

const COUNTRIES = [
  { code: 'DE', name: 'Germany', region: 'Europe', population: 83 },
  { code: 'FR', name: 'France', region: 'Europe', population: 68 },
  { code: 'KE', name: 'Kenya', region: 'Africa', population: 55 },
];

beforeAll(async () => {
  sql = await startEmbeddedTestServer();
  files = await createTestServer({
    generated: {
      endpoints: [{
        kind: 'static',
        routePath: 'Ref/Countries',
        methods: ['GET'],
        overrides: {
          sourceFile: 'endpoints/content/entity.json',
          contentFile: 'endpoints/content/countries.json',
          contentType: 'application/json',
          enableFiltering: true,
          responseTransforms: { remove: ['secret'], rename: { region: 'area' }, mask: ['name'] },
        },
      }],
    },
    serverSettings: { Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] }, RateLimiting: { Enabled: false }, Caching: { Enabled: false } },
  });
  await mkdir(path.join(files.project.root, 'endpoints', 'content'), { recursive: true });
  await writeFile(path.join(files.project.root, 'endpoints', 'content', 'countries.json'), JSON.stringify(COUNTRIES));
}, 120_000);
afterAll(async () => {
  await sql?.close();
  await files?.close();
});

const sqlGet = (apply: string) =>
  sql.app.inject({ method: 'GET', url: `/api/demo/Sales/Orders?$apply=${encodeURIComponent(apply)}&$top=2`, headers: { authorization: sql.authorization } });
const staticGet = (apply: string) => files.inject({ method: 'GET', url: `/api/demo/Ref/Countries?$apply=${encodeURIComponent(apply)}` });

describe('$apply aliases that would not survive into the response: 400', () => {
  it.each([
    ['SQL: __proto__', sqlGet, 'aggregate(Total with sum as __proto__)', "$apply: alias '__proto__' is not allowed at position 29"],
    ['SQL: the Rename target of a grouping column', sqlGet, 'groupby((Status),aggregate(Total with sum as OrderStatus))',
      "$apply: alias 'OrderStatus' and the grouping column 'Status' would both be 'OrderStatus' in the response (ResponseTransforms Rename)"],
    ['Static: __proto__ in a groupby', staticGet, 'groupby((region),aggregate(population with sum as __proto__))', "$apply: alias '__proto__' is not allowed at position 51"],
    ['Static: the Rename target of a grouping column', staticGet, 'groupby((region),aggregate(population with sum as area))',
      "$apply: alias 'area' and the grouping column 'region' would both be 'area' in the response (ResponseTransforms Rename)"],
    ['Static: a masked name', staticGet, 'aggregate(population with max as name)', "$apply: alias 'name' is masked in responses; choose another alias"],
    ['Static: a removed name', staticGet, 'aggregate(population with max as secret)', "$apply: alias 'secret' is removed from responses; choose another alias"],
  ])('%s', async (_name, send, apply, error) => {
    const res = await send(apply);
    expect(res.json()).toEqual({ success: false, error });
    expect(res.statusCode).toBe(400);
  });
});

describe('the same requests with names that survive answer as before', () => {
  it('SQL: groupby Status with an alias of its own, the column shown under its Rename', async () => {
    const res = await sqlGet('groupby((Status),aggregate($count as Orders))');
    expect(res.statusCode).toBe(200);
    const rows = (res.json() as { value: Array<Record<string, unknown>> }).value;
    expect(Object.keys(rows[0]!)).toEqual(['OrderStatus', 'Orders']);
  });

  it('Static: constructor and toString are ordinary aliases', async () => {
    const res = await staticGet('groupby((region),aggregate(population with sum as constructor,$count as toString))');
    expect(res.statusCode).toBe(200);
    expect((res.json() as { value: unknown }).value).toEqual([
      { area: 'Africa', constructor: 55, toString: 1 },
      { area: 'Europe', constructor: 151, toString: 2 },
    ]);
  });
});
