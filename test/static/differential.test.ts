/**
 * Differential test of the two OData evaluators: every OData case the SQL read tests run against
 * Inventory/Products (test/sql/cases.ts) is sent to the SQL endpoint on the embedded demo
 * database and to a Static endpoint serving a JSON copy of the same rows (in key order); the
 * pages must be equal row for row, and so must the totals of `$count`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../compiler/pipeline.js';
import { buildServer } from '../../runtime/server.js';
import type { RawOptions } from '../../runtime/sql/odata/options.js';
import { P, SQL_CASES } from '../sql/cases.js';
import { copyProject } from '../support/project.js';
import type { TempProject } from '../support/project.js';

let project: TempProject;
let app: FastifyInstance;
let authorization: string;

/** Without any option a Static endpoint serves its raw file: the empty case sends `$skip=0` to both. */
function queryString(options: RawOptions): string {
  const entries = Object.entries(options);
  return (entries.length === 0 ? [['skip', '0']] : entries)
    .map(([key, value]) => `$${key}=${encodeURIComponent(String(value))}`)
    .join('&');
}

async function read(route: string, options: RawOptions) {
  const res = await app.inject({ method: 'GET', url: `/api/demo/${route}?${queryString(options)}`, headers: { authorization } });
  return { status: res.statusCode, headers: res.headers, body: res.json() as { value: unknown[]; count: number; nextLink: string | null; error?: string } };
}

beforeAll(async () => {
  project = await copyProject(['endpoints', 'schemas']);
  const dir = path.join(project.root, 'endpoints', 'Static', 'Diff', 'Products');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'entity.json'), JSON.stringify({ ContentFile: 'products.json', EnableFiltering: true }));
  await fs.writeFile(path.join(dir, 'products.json'), '[]');
  const result = await compile({ root: project.root, docs: false });
  if (!result.outputs) throw new Error(`compile failed: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
  for (const file of result.outputs) {
    const target = path.join(project.root, 'generated', file.path);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, file.content);
  }
  const environments = path.join(project.root, 'environments');
  await fs.mkdir(path.join(environments, 'demo'), { recursive: true });
  await fs.writeFile(path.join(environments, 'settings.json'), JSON.stringify({
    Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] },
    RateLimiting: { Enabled: false },
    Caching: { Enabled: false },
  }));
  await fs.writeFile(path.join(environments, 'demo', 'settings.json'), JSON.stringify({ Provider: 'embedded', ConnectionString: 'embedded://demo' }));
  app = await buildServer({
    generatedDir: path.join(project.root, 'generated'),
    environmentsDir: environments,
    dataDir: path.join(project.root, 'data'),
    env: {},
    logger: false,
  });
  authorization = `Bearer ${(await app.wharf.access.tokens.create({ username: 'diff' })).token}`;
  // the JSON copy: every product in key order, as the SQL endpoint exposes it
  const rows: unknown[] = [];
  let url: string | null = '/api/demo/Inventory/Products?$orderby=ProductId&$top=1000';
  while (url) {
    const res = await app.inject({ method: 'GET', url, headers: { authorization } });
    const body = res.json() as { value: unknown[]; nextLink: string | null };
    rows.push(...body.value);
    url = body.nextLink;
  }
  await fs.writeFile(path.join(dir, 'products.json'), JSON.stringify(rows));
}, 120_000);

afterAll(async () => {
  await app?.close();
  await project?.remove();
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
