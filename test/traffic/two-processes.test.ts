/**
 * Two real gateway processes (`wharf start`) sharing one real Redis and one token store: one
 * rate-limit budget for both, and a token revoked with the CLI (a third process) is refused by both
 * once their short verification cache expires.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../setup/redis.js';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { copyProject, REPO_ROOT, type TempProject } from '../support/project.js';

const run = promisify(execFile);
const WHARF = path.join(REPO_ROOT, 'scripts/wharf.mjs');

let redis: TestRedis;
let project: TempProject;
let env: NodeJS.ProcessEnv;
const gateways: { child: ChildProcess; url: string }[] = [];

async function token(...args: string[]): Promise<string[]> {
  const { stdout } = await run(process.execPath, [WHARF, 'token', ...args], { cwd: project.root, env });
  return stdout.trim().split('\n');
}

function startGateway(): Promise<GatewayProcess> {
  return startGatewayProcess(project.root, env);
}

function call(gateway: { url: string }, bearer: string) {
  return fetch(`${gateway.url}/api/demo/Weather`, { headers: { authorization: `Bearer ${bearer}` } });
}

beforeAll(async () => {
  redis = await startRedis();
  project = await copyProject(['endpoints', 'schemas', 'environments', 'generated']);
  // No database is needed here (the calls go to a Proxy endpoint, admitted and then answered 502: its
  // demo upstream is not running); keep the embedded one from starting.
  await writeFile(
    path.join(project.root, 'environments/demo/settings.json'),
    JSON.stringify({ Provider: 'postgres', ConnectionString: 'postgres://127.0.0.1:1/none' }),
  );
  env = {
    ...process.env,
    Redis__Url: redis.url,
    RateLimiting__IpLimit: '1000',
    RateLimiting__TokenLimit: '5',
    RateLimiting__TokenWindow: '60',
    Auth__VerificationCacheSeconds: '1',
  };
  await token('create', '--username', 'first');
  gateways.push(await startGateway(), await startGateway());
}, 120_000);

afterAll(async () => {
  for (const g of gateways) g.child.kill('SIGTERM');
  await project?.remove();
  await redis?.stop();
});

describe('two gateway processes on one Redis', () => {
  it('share one token budget: the sixth call is refused whichever process gets it', async () => {
    const created = await token('create', '--username', 'budget');
    const secret = created.at(-1) as string;
    const [a, b] = gateways as [{ child: ChildProcess; url: string }, { child: ChildProcess; url: string }];
    const remaining: string[] = [];
    for (const g of [a, b, a, b, a]) {
      const response = await call(g, secret);
      expect(response.status).toBe(502);
      remaining.push(response.headers.get('x-ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const refused = await call(b, secret);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ success: false });
    expect((await call(a, secret)).status).toBe(429);
  });

  it('a token revoked by the CLI is refused by both processes after the verification cache expires', async () => {
    const created = await token('create', '--username', 'revoked');
    const secret = created.at(-1) as string;
    const id = /^Token (\d+) created/.exec(created[0] ?? '')?.[1];
    expect(id).toBeDefined();
    const [a, b] = gateways as [{ child: ChildProcess; url: string }, { child: ChildProcess; url: string }];
    expect((await call(a, secret)).status).toBe(502);
    expect((await call(b, secret)).status).toBe(502);
    await token('revoke', id as string);
    await new Promise((r) => setTimeout(r, 1_500));
    for (const g of [a, b]) {
      const response = await call(g, secret);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ success: false, error: 'Invalid or expired token' });
    }
  });
});
