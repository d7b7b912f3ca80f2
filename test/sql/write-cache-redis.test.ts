/**
 * Cache invalidation across instances: two real gateway processes (`wharf start`) with the Redis
 * response cache, one real PostgreSQL (the demo schema) and one token store. Read through B
 * (cached), write through A, read through B again: B answers the new data, not its cached copy.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startRedis, type TestRedis } from '../setup/redis.js';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { copyProject, REPO_ROOT, type TempProject } from '../support/project.js';

const run = promisify(execFile);
const WHARF = path.join(REPO_ROOT, 'scripts/wharf.mjs');

let redis: TestRedis;
let pg: TestPostgres;
let project: TempProject;
let env: NodeJS.ProcessEnv;
let bearer: string;
const gateways: { child: ChildProcess; url: string }[] = [];

function startGateway(): Promise<GatewayProcess> {
  return startGatewayProcess(project.root, env);
}

beforeAll(async () => {
  [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  project = await copyProject(['endpoints', 'schemas', 'environments', 'generated']);
  await writeFile(path.join(project.root, 'environments/demo/settings.json'), JSON.stringify({ Provider: 'postgres', ConnectionString: pg.url }));
  env = { ...process.env, Redis__Url: redis.url, Caching__Enabled: 'true', Caching__Provider: 'Redis', RateLimiting__Enabled: 'false' };
  const { stdout } = await run(process.execPath, [WHARF, 'token', 'create', '--username', 'writer'], { cwd: project.root, env });
  bearer = stdout.trim().split('\n').at(-1) as string;
  gateways.push(await startGateway(), await startGateway());
}, 180_000);

afterAll(async () => {
  for (const g of gateways) g.child.kill('SIGTERM');
  await project?.remove();
  await Promise.allSettled([redis?.stop(), pg?.stop()]);
});

function call(gateway: { url: string }, method: string, route: string, body?: unknown) {
  return fetch(`${gateway.url}/api/demo/${route}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

describe('two gateway processes on one Redis cache', () => {
  it('a write through A drops the reads B has cached', async () => {
    const [a, b] = gateways as unknown as [{ url: string }, { url: string }];
    const read = 'Inventory/Warehouses/2?$select=Name,City';
    const first = await call(b, 'GET', read);
    expect([first.headers.get('x-cache'), await first.json()]).toEqual(['MISS', { Name: 'Hamburg North', City: 'Hamburg' }]);
    const cached = await call(b, 'GET', read);
    expect([cached.headers.get('x-cache'), await cached.json()]).toEqual(['HIT', { Name: 'Hamburg North', City: 'Hamburg' }]);

    const written = await call(a, 'PATCH', 'Inventory/Warehouses/2', { City: 'Bremen' });
    expect(written.status).toBe(200);

    const after = await call(b, 'GET', read);
    expect([after.headers.get('x-cache'), await after.json()]).toEqual(['MISS', { Name: 'Hamburg North', City: 'Bremen' }]);
  });
});
