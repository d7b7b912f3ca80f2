/**
 * Differential test of the two OData evaluators: every OData case the SQL read tests run against
 * Inventory/Products (test/sql/cases.ts) is sent to the SQL endpoint on the embedded demo
 * database and to a Static endpoint serving a JSON copy of the same rows (in key order); the
 * pages must be equal row for row, and so must the totals of `$count`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawOptions } from '../../runtime/sql/odata/options.js';
import { P, SQL_CASES } from '../sql/cases.js';
import { startProductsProject } from './products-project.js';
import type { ProductsProject } from './products-project.js';

let products: ProductsProject;

/** Without any option a Static endpoint serves its raw file: the empty case sends `$skip=0` to both. */
function queryString(options: RawOptions): string {
  const entries = Object.entries(options);
  return (entries.length === 0 ? [['skip', '0']] : entries)
    .map(([key, value]) => `$${key}=${encodeURIComponent(String(value))}`)
    .join('&');
}

async function read(route: string, options: RawOptions) {
  const res = await products.app.inject({ method: 'GET', url: `/api/demo/${route}?${queryString(options)}`, headers: { authorization: products.authorization } });
  return { status: res.statusCode, headers: res.headers, body: res.json() as { value: unknown[]; count: number; nextLink: string | null; error?: string } };
}

beforeAll(async () => {
  products = await startProductsProject('demo', { Provider: 'embedded', ConnectionString: 'embedded://demo' });
}, 120_000);

afterAll(async () => {
  await products?.close();
});

const cases = SQL_CASES.filter(([, c]) => c.endpoint === P);

describe('Static (in memory) vs SQL (embedded PostgreSQL) on the demo products', () => {
  it('covers the SQL read cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
  });

  it.each(cases.filter(([, c]) => c.options.expand === undefined))('%s', async (_name, c) => {
    const sql = await read('Inventory/Products', c.options);
    const stat = await read('Diff/Products', c.options);
    expect(sql.status).toBe(200);
    expect(stat.status).toBe(200);
    expect(stat.body.value.length).toBeGreaterThanOrEqual(Math.min(c.minRows, 100));
    expect(stat.body.value).toEqual(sql.body.value);
    expect(stat.body.count).toBe(sql.body.count);
    expect(stat.body.nextLink === null).toBe(sql.body.nextLink === null);
    if (c.options.count === 'true') expect(stat.headers['x-total-records']).toBe(sql.headers['x-total-records']);
  });

  it('$expand is SQL only', async () => {
    const res = await read('Diff/Products', { expand: 'Category' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('$expand is not supported on Static endpoints');
  });
});
