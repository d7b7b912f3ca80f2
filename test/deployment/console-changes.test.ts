/**
 * Console changes on several instances (docs/deployment.md): two gateway processes, each with its
 * own project folder (as two containers would have), on one PostgreSQL token store and one Redis.
 *   - a setting saved on A (PUT /ui/api/settings) is reported by B (GET /ui/api/settings) with the
 *     same effective values, Logging:MinLevel applied live on B, and both survive a restart of B
 *     (the restart-only RateLimiting:IpLimit is then in force on B); a change made while B is down
 *     (a restart-only one too) is in force when B starts;
 *   - an environment added on A (PATCH /ui/api/environments) answers on B, which refused it before;
 *   - without Redis the same reaches another instance through its poll of the store;
 *   - with the store stopped a console change is 503 and the last known values keep serving.
 * And a gateway whose settings store does not answer at start still serves (one warning line).
 */
import { execFile as execFileCb } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../setup/free-port.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startRedis, type TestRedis } from '../setup/redis.js';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import type { TempProject } from '../support/project.js';
import { postgresProject, WHARF } from '../operations/server-process.js';

const execFile = promisify(execFileCb);

let pg: TestPostgres;
let redis: TestRedis;
let projectA: TempProject;
let rootB: string;
let env: NodeJS.ProcessEnv;
let token: string;
let a: GatewayProcess;
let b: GatewayProcess;
let portB: number;
const started: GatewayProcess[] = [];

const exited = (child: GatewayProcess['child']): Promise<unknown> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));

async function start(root: string, port = 0, environment = env): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(root, environment, 90_000, port);
  started.push(gateway);
  return gateway;
}

const consoleCall = (gateway: GatewayProcess, method: string, url: string, body?: unknown) =>
  fetch(`${gateway.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

interface SettingsDump {
  logging: { min_level: string };
  effective: Record<string, { value: unknown; source: string; pending?: unknown }>;
}

const settingsOf = async (gateway: GatewayProcess): Promise<SettingsDump> => (await consoleCall(gateway, 'GET', '/ui/api/settings')).json() as Promise<SettingsDump>;

/** Polls (bounded: 100 x 50 ms) until `check` holds; returns its last value. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < 100 && !check(value); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

beforeAll(async () => {
  [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  projectA = await postgresProject(pg.url);
  rootB = await mkdtemp(path.join(tmpdir(), 'wharf-project-b-'));
  await cp(projectA.root, rootB, { recursive: true });
  env = {
    ...process.env,
    Redis__Url: redis.url,
    Auth__Store__Provider: 'Postgres',
    Auth__Store__ConnectionString: pg.url,
    RateLimiting__Enabled: 'false',
    Auth__VerificationCacheSeconds: '60', // the token stays verified while the store is stopped (last test)
    HEALTHCHECK_SKIP_PROXY: 'true',
  };
  const { stdout } = await execFile(process.execPath, [WHARF, 'token', 'create', '--username', 'console-changes'], { cwd: projectA.root, env });
  token = /whf_\S+/.exec(stdout)![0];
  portB = await freePort();
  [a, b] = await Promise.all([start(projectA.root), start(rootB, portB)]);
}, 240_000);

afterAll(async () => {
  for (const gateway of started) gateway.child.kill('SIGKILL');
  await Promise.all(started.map((gateway) => exited(gateway.child)));
  await projectA?.remove();
  if (rootB) await rm(rootB, { recursive: true, force: true });
  await Promise.all([redis?.stop(), pg?.stop()]);
});

describe('console changes reach every instance (PostgreSQL token store, Redis)', () => {
  it('a setting saved on A is reported and applied live by B, and survives a restart of B', async () => {
    expect((await settingsOf(b)).logging.min_level).toBe('info');
    const saved = await consoleCall(a, 'PUT', '/ui/api/settings', { 'Logging:MinLevel': 'debug', 'RateLimiting:IpLimit': 1234 });
    expect(await saved.json()).toEqual({ ok: true, restart_required: true });

    const onB = await eventually(() => settingsOf(b), (dump) => dump.logging.min_level === 'debug');
    expect(onB.logging.min_level).toBe('debug'); // B's logger level, changed live
    expect(onB.effective['Logging:MinLevel']).toEqual({ value: 'debug', source: 'console' });
    expect(onB.effective['RateLimiting:IpLimit']).toEqual({ value: 100, source: 'console', pending: 1234 });
    expect(onB.effective).toEqual((await settingsOf(a)).effective);

    b.child.kill('SIGTERM');
    await exited(b.child);
    b = await start(rootB, portB);
    const restarted = await settingsOf(b);
    expect(restarted.logging.min_level).toBe('debug');
    expect(restarted.effective['Logging:MinLevel']).toEqual({ value: 'debug', source: 'console' });
    expect(restarted.effective['RateLimiting:IpLimit']).toEqual({ value: 1234, source: 'console' });

    // a change made while B is down: B reads it from the store as it starts
    b.child.kill('SIGTERM');
    await exited(b.child);
    const whileDown = await consoleCall(a, 'PUT', '/ui/api/settings', { 'Logging:MinLevel': 'warn', 'RateLimiting:IpLimit': 4321 });
    expect(await whileDown.json()).toEqual({ ok: true, restart_required: true });
    b = await start(rootB, portB);
    const afterStart = await settingsOf(b);
    expect(afterStart.effective['Logging:MinLevel']).toEqual({ value: 'warn', source: 'console' });
    expect(afterStart.effective['RateLimiting:IpLimit']).toEqual({ value: 4321, source: 'console' });
  }, 120_000);

  it('an environment added on A answers on B', async () => {
    const extra = (gateway: GatewayProcess) =>
      fetch(`${gateway.url}/api/extra/Inventory/Warehouses`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => (await r.arrayBuffer(), r.status));
    expect(await extra(b)).toBe(400);
    const patched = await consoleCall(a, 'PATCH', '/ui/api/environments', {
      allowed_environments: ['demo', 'extra'],
      environments: { extra: { provider: 'postgres', connection_string: pg.url } },
    });
    expect(patched.status).toBe(200);
    expect(await extra(a)).toBe(200);
    expect(await eventually(() => extra(b), (status) => status === 200)).toBe(200);
    const listed = (await (await consoleCall(b, 'GET', '/ui/api/environments')).json()) as { allowed_environments: string[]; environments: Record<string, unknown> };
    expect(listed.allowed_environments).toEqual(['demo', 'extra']);
    expect(listed.environments['extra']).toEqual({ provider: 'postgres', connection_string: '<CONNECTION_STRING>' });
  }, 60_000);

  it('without Redis: an environment added on C answers on D (each instance polls the store)', async () => {
    const roots = await Promise.all(['c', 'd'].map((name) => mkdtemp(path.join(tmpdir(), `wharf-project-${name}-`))));
    try {
      for (const root of roots) await cp(projectA.root, root, { recursive: true });
      const [c, d] = await Promise.all(roots.map((root) => start(root, 0, { ...env, Redis__Url: '' })));
      const polled = (gateway: GatewayProcess) =>
        fetch(`${gateway.url}/api/polled/Inventory/Warehouses`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => (await r.arrayBuffer(), r.status));
      expect(await polled(d!)).toBe(400);
      const patched = await consoleCall(c!, 'PATCH', '/ui/api/environments', {
        allowed_environments: ['demo', 'extra', 'polled'],
        environments: { polled: { provider: 'postgres', connection_string: pg.url } },
      });
      expect(patched.status).toBe(200);
      // no console call on D: only its poll (every 5 s) can bring the change; bounded at 15 s
      let status = await polled(d!);
      for (let attempt = 0; attempt < 60 && status !== 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        status = await polled(d!);
      }
      expect(status).toBe(200);
      for (const gateway of [c!, d!]) {
        gateway.child.kill('SIGTERM');
        await exited(gateway.child);
      }
    } finally {
      for (const root of roots) await rm(root, { recursive: true, force: true });
    }
  }, 90_000);

  it('the store down: a console change is 503 and changes nothing, the last known environments keep serving (one log line)', async () => {
    const listed = async () => consoleCall(a, 'GET', '/ui/api/environments');
    expect((await listed()).status).toBe(200); // the token is verified now and stays so for 60 s
    await pg.stopServer();
    const refused = await consoleCall(a, 'PUT', '/ui/api/settings', { 'Logging:MinLevel': 'error' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { success: boolean; error: string }).success).toBe(false);
    const overrides = JSON.parse(await readFile(path.join(projectA.root, 'environments/settings.overrides.json'), 'utf8')) as { Logging: { MinLevel: string } };
    expect(overrides.Logging.MinLevel).toBe('warn'); // the refused change was written nowhere
    for (let i = 0; i < 3; i++) {
      const response = await listed();
      expect(response.status).toBe(200);
      expect(((await response.json()) as { allowed_environments: string[] }).allowed_environments).toEqual(['demo', 'extra', 'polled']);
    }
    expect(a.output().split('\n').filter((line) => line.includes('Console settings store unreachable'))).toHaveLength(1);
  }, 60_000);

  it('a settings store that does not answer at start does not stop the gateway (one warning line)', async () => {
    const dead = await freePort();
    const gateway = await start(rootB, 0, { ...env, Redis__Url: '', Auth__Store__ConnectionString: `postgres://wharf@127.0.0.1:${dead}/none`, Auth__Store__CommandTimeoutMs: '500' });
    expect((await fetch(`${gateway.url}/health/live`)).status).toBe(200);
    const lines = gateway.output().split('\n').filter((line) => line.includes('Console settings store unreachable'));
    expect(lines).toHaveLength(1);
    gateway.child.kill('SIGTERM');
    await exited(gateway.child);
  }, 60_000);
});
