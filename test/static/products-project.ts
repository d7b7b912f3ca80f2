/**
 * A temp copy of the project with one extra Static endpoint, `Diff/Products`, whose content is a
 * JSON copy of the rows of the SQL endpoint Inventory/Products (in key order, as that endpoint
 * exposes them), served by the real compiler output and runtime. Used by the differential test
 * (embedded demo database) and the Static bench (PostgreSQL).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { compile } from '../../compiler/pipeline.js';
import { buildServer } from '../../runtime/server.js';
import { copyProject } from '../support/project.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

export interface ProductsProject {
  readonly app: FastifyInstance;
  readonly authorization: string;
  readonly rows: number;
  close(): Promise<void>;
}

/** `environment` is the settings.json of the one environment `env`; `limit` caps the copied rows. */
export async function startProductsProject(env: string, environment: unknown, limit = Infinity): Promise<ProductsProject> {
  const project = await copyProject(['endpoints', 'schemas']);
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
  await fs.mkdir(path.join(environments, env), { recursive: true });
  await fs.writeFile(path.join(environments, 'settings.json'), JSON.stringify({
    Environment: { ServerName: 'test', AllowedEnvironments: [env] },
    // the two evaluators themselves: no response cache, no limiter
    RateLimiting: { Enabled: false },
    Caching: { Enabled: false },
  }));
  await fs.writeFile(path.join(environments, env, 'settings.json'), JSON.stringify(environment));
  const app = await buildServer({
    generatedDir: path.join(project.root, 'generated'),
    environmentsDir: environments,
    dataDir: path.join(project.root, 'data'),
    env: {},
    logger: false,
  });
  const authorization = `Bearer ${(await gatewayOf(app).access.tokens.create({ username: 'products' })).token}`;
  const rows: unknown[] = [];
  let url: string | null = `/api/${env}/Inventory/Products?$orderby=ProductId&$top=1000`;
  while (url && rows.length < limit) {
    const res = await app.inject({ method: 'GET', url, headers: { authorization } });
    const body = res.json() as { value: unknown[]; nextLink: string | null };
    rows.push(...body.value);
    url = body.nextLink;
  }
  if (rows.length > limit) rows.length = limit;
  await fs.writeFile(path.join(dir, 'products.json'), JSON.stringify(rows));
  return {
    app,
    authorization,
    rows: rows.length,
    close: async () => {
      await app.close();
      await project.remove();
    },
  };
}
