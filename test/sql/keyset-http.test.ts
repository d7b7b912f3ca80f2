/**
 * Keyset paging through the running server on a real PostgreSQL and the embedded demo database:
 * Inventory/ProductPages (`"Paging": "Keyset"`) walked page by page with `$orderby=Price desc`
 * visits exactly the rows Inventory/Products (`$skip` paging, the default) returns for the same
 * order; nextLink carries `$skiptoken` and no `$skip`; tampered, foreign and misplaced tokens are 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from './http-server.js';

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

interface Page { success: boolean; count: number; value: Record<string, unknown>[]; nextLink: string | null }

async function get(url: string) {
  return server.app.inject({ method: 'GET', url, headers: { authorization: server.authorization } });
}

describe.each(['pg', 'demo'])('keyset paging on %s', (env) => {
  const filter = encodeURIComponent('Price lt 30');
  it('every page after the first starts after the last row: the same rows as $skip paging, once each', async () => {
    const expected = (await get(`/api/${env}/Inventory/Products?$filter=${filter}&$orderby=Price%20desc&$select=ProductId,Price&$top=1000`)).json() as Page;
    expect(expected.value.length).toBeGreaterThan(150);
    const seen: unknown[] = [];
    let url: string | null = `/api/${env}/Inventory/ProductPages?$filter=${filter}&$orderby=Price%20desc&$select=ProductId,Price&$top=70`;
    let first = true;
    while (url !== null) {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Page;
      for (const row of page.value) expect(Object.keys(row)).toEqual(['ProductId', 'Price']);
      seen.push(...page.value);
      if (page.nextLink !== null) {
        expect(page.nextLink).toMatch(new RegExp(`^/api/${env}/Inventory/ProductPages\\?\\$filter=Price%20lt%2030&\\$orderby=Price%20desc&\\$select=ProductId,Price&\\$top=70&\\$skiptoken=[A-Za-z0-9_-]+$`));
        expect(page.nextLink).not.toContain('$skip=');
      }
      if (first) expect(page.count).toBe(70);
      first = false;
      url = page.nextLink;
    }
    expect(seen).toEqual(expected.value);
  });

  it.each(['CreatedAt desc', 'Name,Stock desc', 'CategoryId,Price'])('$orderby=%s: three keyset pages are the three $skip pages', async (orderby) => {
    const o = encodeURIComponent(orderby);
    const expected = (await get(`/api/${env}/Inventory/Products?$orderby=${o}&$select=ProductId&$top=150`)).json() as Page;
    const seen: unknown[] = [];
    let url: string | null = `/api/${env}/Inventory/ProductPages?$orderby=${o}&$select=ProductId&$top=50`;
    for (let i = 0; i < 3 && url !== null; i++) {
      const page = (await get(url)).json() as Page;
      seen.push(...page.value);
      url = page.nextLink;
    }
    expect(seen).toEqual(expected.value);
  });

  it('a page without $orderby: the key order', async () => {
    const page = (await get(`/api/${env}/Inventory/ProductPages?$top=3&$select=ProductId`)).json() as Page;
    const next = (await get(page.nextLink!)).json() as Page;
    expect([...page.value, ...next.value].map((r) => r['ProductId'])).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it.each([
    ['a tampered token', (link: string) => link.replace(/\$skiptoken=(.)/, (_m, c: string) => `$skiptoken=${c === 'A' ? 'B' : 'A'}`)],
    ['a token of another ordering', (link: string) => link.replace('$orderby=Price%20desc', '$orderby=Price%20asc')],
    ['a token on another endpoint', (link: string) => link.replace('/ProductPages?', '/Products?')],
  ])('%s is a 400', async (name, change) => {
    const first = (await get(`/api/${env}/Inventory/ProductPages?$orderby=Price%20desc&$top=2`)).json() as Page;
    const res = await get(change(first.nextLink!));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: name === 'a token on another endpoint'
        ? '$skiptoken is only accepted by endpoints with "Paging": "Keyset"'
        : '$skiptoken is not valid for this request (altered, expired or from another endpoint or ordering)',
    });
  });

  it('$skip with a token is a 400', async () => {
    const first = (await get(`/api/${env}/Inventory/ProductPages?$top=2`)).json() as Page;
    const res = await get(`${first.nextLink!}&$skip=4`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: '$skip cannot be combined with $skiptoken' });
  });
});
