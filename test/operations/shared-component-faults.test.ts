/**
 * Shared components that restart, refuse or freeze, against real processes: a real gateway
 * (`wharf start`) with its token store on a real PostgreSQL and Redis for rate limits and the
 * response cache. PostgreSQL restarted (`pg_ctl -m fast restart`) and stopped at start; Redis
 * frozen (SIGSTOP) and stopped at start. The gateway must survive, answer within the documented
 * deadlines (Redis:CommandTimeoutMs, Auth:Store:CommandTimeoutMs) and use the component again
 * when it is back.
 */
import { execFile } from 'node:child_process';
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
const REDIS_TIMEOUT_MS = 300;
const PRODUCTS = '/api/demo/Inventory/Products?$top=1';

let postgres: TestPostgres;
let redis: TestRedis;
let project: TempProject;
let env: NodeJS.ProcessEnv;
let token: string;
const gateways: GatewayProcess[] = [];

async function startGateway(): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(project.root, env, 90_000);
  gateways.push(gateway);
  return gateway;
}

function get(gateway: GatewayProcess, url: string): Promise<Response> {
  return fetch(`${gateway.url}${url}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(20_000) });
}

/** Calls `probe` every 200 ms until it returns true (or fails after `ms`). */
async function eventually(probe: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function alive(gateway: GatewayProcess): boolean {
  return gateway.child.exitCode === null && gateway.child.signalCode === null;
}

interface Details {
  status: string;
  checks: { name: string; status: string; description: string; tags: string[]; data: Record<string, unknown> }[];
}

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  project = await copyProject(['endpoints', 'schemas', 'environments', 'generated']);
  // the demo environment's SQL endpoints on the same PostgreSQL (demo schema and seed loaded)
  await writeFile(path.join(project.root, 'environments/demo/settings.json'), JSON.stringify({ Provider: 'postgres', ConnectionString: postgres.url }));
  env = {
    ...process.env,
    Auth__Store__Provider: 'Postgres',
    Auth__Store__ConnectionString: postgres.url,
    Auth__Store__CommandTimeoutMs: '1000',
    // every request reads the token store (no verification cache)
    Auth__VerificationCacheSeconds: '0',
    Redis__Url: redis.url,
    Redis__CommandTimeoutMs: String(REDIS_TIMEOUT_MS),
    Caching__Provider: 'Redis',
    RateLimiting__IpLimit: '100000',
    RateLimiting__TokenLimit: '100000',
    HEALTHCHECK_SKIP_PROXY: 'true',
    HEALTHCHECK_CACHE_TIME: '1',
    WebUi__SeedPassword: 'seed-password-1',
  };
  const { stdout } = await run(process.execPath, [WHARF, 'token', 'create', '--username', 'faults'], { cwd: project.root, env });
  token = stdout.trim().split('\n').at(-1) as string;
}, 180_000);

afterAll(async () => {
  redis?.thaw();
  for (const gateway of gateways) gateway.child.kill('SIGKILL');
  await redis?.stop();
  await postgres?.stop();
  await project?.remove();
});

describe('a running gateway', () => {
  let gateway: GatewayProcess;

  beforeAll(async () => {
    gateway = await startGateway();
    expect((await get(gateway, PRODUCTS)).status).toBe(200);
  }, 120_000);

  it('survives a PostgreSQL restart of its token store and serves again within seconds', async () => {
    // the token store's pool holds idle connections now; a fast restart ends them (57P01)
    await postgres.restart();
    await eventually(async () => (await get(gateway, PRODUCTS)).status === 200);
    expect(alive(gateway)).toBe(true);
    expect(gateway.output()).not.toContain("Unhandled 'error' event");
    expect(gateway.output()).toContain('Token store connection lost (the pool reconnects)');
  }, 60_000);

  it('answers within the Redis command timeout while Redis is frozen (SIGSTOP)', async () => {
    redis.freeze();
    try {
      const elapsed: number[] = [];
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const started = performance.now();
        const response = await get(gateway, PRODUCTS);
        elapsed.push(performance.now() - started);
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200]);
      // each request waits at most one command timeout per Redis call (rate limit, cache), never for Redis to wake up
      for (const ms of elapsed) expect(ms).toBeLessThan(REDIS_TIMEOUT_MS * 2 + 1500);
      // the background health run (every second here) finds Redis not answering within its timeout
      let check: Details['checks'][number] | undefined;
      await eventually(async () => {
        const details = (await (await get(gateway, '/health/details')).json()) as Details;
        check = details.checks.find((c) => c.name === 'Redis');
        return check?.status === 'Degraded';
      }, 4000);
      expect(check).toMatchObject({ status: 'Degraded', tags: ['redis', 'cache', 'ratelimiting'], data: { connection: 'Configured' } });
      await new Promise((resolve) => setTimeout(resolve, 3000)); // frozen for about 5 s in all
    } finally {
      redis.thaw();
    }
    await eventually(async () => {
      const details = (await (await get(gateway, '/health/details')).json()) as Details;
      return details.checks.find((c) => c.name === 'Redis')?.status === 'Healthy';
    });
    expect(alive(gateway)).toBe(true);
  }, 60_000);
});

describe('a gateway started while Redis is down', () => {
  it('starts, serves on per-instance fallbacks, says so in one line and connects when Redis is back', async () => {
    await redis.stop();
    let stopped = true;
    try {
      const gateway = await startGateway();
      const response = await get(gateway, PRODUCTS);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/); // counted here, per instance
      const details = await get(gateway, '/health/details');
      expect(details.status).toBe(200);
      const body = (await details.json()) as Details;
      expect(body.status).toBe('Degraded');
      expect(body.checks.map((c) => [c.name, c.status])).toEqual([
        ['Database', 'Healthy'],
        ['DatabaseSchema', 'Healthy'], // the demo ships endpoints/database.snapshot.json
        ['Diskspace', 'Healthy'],
        ['ProxyEndpoints', 'Healthy'],
        ['TokenStore', 'Healthy'],
        ['Redis', 'Degraded'],
      ]);
      expect(body.checks.find((c) => c.name === 'Redis')).toMatchObject({
        description: 'Redis is unreachable: rate limits are per instance and the Redis cache is bypassed',
        data: { connection: 'Configured' },
      });
      expect(gateway.output().match(/Redis is unreachable \(/g)).toHaveLength(1);
      expect(gateway.output()).not.toContain('[ioredis] Unhandled error event');

      redis = await startRedis({ port: redis.port });
      stopped = false;
      await eventually(async () => gateway.output().includes('Redis is reachable again'));
      await eventually(async () => ((await (await get(gateway, '/health/details')).json()) as Details).status === 'Healthy');
      expect(alive(gateway)).toBe(true);
    } finally {
      if (stopped) redis = await startRedis({ port: redis.port });
    }
  }, 120_000);
});

describe('a gateway started while PostgreSQL (token store) is down', () => {
  it('starts, answers a clean 503 at once, and serves when PostgreSQL is back', async () => {
    await postgres.stopServer();
    let stopped = true;
    try {
      const gateway = await startGateway();
      const started = performance.now();
      const refused = await get(gateway, PRODUCTS);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({ success: false, error: 'The token store is not available. Retry shortly.' });
      expect(gateway.output()).toContain('Token store database unreachable at start');

      await postgres.startServer();
      stopped = false;
      await eventually(async () => (await get(gateway, PRODUCTS)).status === 200);
      expect(alive(gateway)).toBe(true);
    } finally {
      if (stopped) await postgres.startServer();
    }
  }, 120_000);
});
