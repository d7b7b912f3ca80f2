/**
 * Authorization rules on a Static endpoint (in-memory filtering) through buildServer: the RowFilter
 * (claims of a Wharf token: its username) leaves only the matching records, with or without the
 * client's options and with EnableFiltering off; Columns narrows the fields; no rule, 403.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRowFilter } from '../../runtime/auth/rules/row-filter.js';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const COUNTRIES = [
  { code: 'DE', name: 'Germany', region: 'Europe', population: 83200000 },
  { code: 'FR', name: 'France', region: 'Europe', population: 68100000 },
  { code: 'JP', name: 'Japan', region: 'Asia', population: 124500000 },
];
const ANY: Record<string, string> = { region: 'region', code: 'code', name: 'name', population: 'population' };
const AUTHORIZATION = {
  rules: [
    { scopes: ['regional'], methods: null, rowFilter: 'region eq @claims.username', rowFilterAst: parseRowFilter('region eq @claims.username', ANY), columns: ['code', 'name'], forwardClaims: {} },
  ],
};
const MODEL = { sourceFile: 'endpoints/content/entity.json', contentFile: 'endpoints/content/countries.json', contentType: 'application/json', authorization: AUTHORIZATION };
const ENDPOINTS = [
  { kind: 'static' as const, routePath: 'Ref/Filtered', methods: ['GET', 'QUERY'] as const, overrides: { ...MODEL, enableFiltering: true } },
  { kind: 'static' as const, routePath: 'Ref/Raw', methods: ['GET', 'QUERY'] as const, overrides: { ...MODEL, enableFiltering: false } },
];

let server: TestServer;
const tokens: Record<string, string> = {};
const get = (url: string, token: string) => server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[token]}` } });

beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: ENDPOINTS },
    serverSettings: { Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] }, RateLimiting: { IpLimit: 100000, TokenLimit: 100000 } },
  });
  await fs.mkdir(path.join(server.project.root, 'endpoints/content'), { recursive: true });
  await fs.writeFile(path.join(server.project.root, 'endpoints/content/countries.json'), JSON.stringify(COUNTRIES));
  const service = gatewayOf(server.app).access.tokens;
  tokens['Europe'] = (await service.create({ username: 'Europe', allowedScopes: 'regional' })).token;
  tokens['Mars'] = (await service.create({ username: 'Mars', allowedScopes: 'regional' })).token;
  tokens['reader'] = (await service.create({ username: 'reader', allowedScopes: 'read' })).token;
});
afterAll(async () => server?.close());

describe('Static endpoints with Authorization rules', () => {
  it('leaves only the records of the RowFilter, with the rule\'s columns', async () => {
    const response = await get('/api/demo/Ref/Filtered', 'Europe');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, count: 2, value: [{ code: 'DE', name: 'Germany' }, { code: 'FR', name: 'France' }], nextLink: null });
    const filtered = await get("/api/demo/Ref/Filtered?$filter=code eq 'JP' or code eq 'FR'", 'Europe');
    expect((filtered.json() as { value: unknown[] }).value).toEqual([{ code: 'FR', name: 'France' }]);
    expect((await get('/api/demo/Ref/Filtered?$select=population', 'Europe')).statusCode).toBe(400);
    expect((await get("/api/demo/Ref/Filtered?$filter=region eq 'Asia'", 'Europe')).statusCode).toBe(400);
  });

  it('never the whole file: EnableFiltering off still filters; a claim with no match, no records; no rule, 403', async () => {
    expect((await get('/api/demo/Ref/Raw', 'Europe')).json()).toMatchObject({ count: 2 });
    expect((await get('/api/demo/Ref/Raw', 'Mars')).json()).toEqual({ success: true, count: 0, value: [], nextLink: null });
    expect((await get('/api/demo/Ref/Raw?$top=1', 'Europe')).statusCode).toBe(400);
    expect((await get('/api/demo/Ref/Raw', 'reader')).statusCode).toBe(403);
  });
});
