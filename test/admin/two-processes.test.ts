/**
 * Two real gateway processes (`wharf start`) on one token/account store and one real redis-server,
 * with a verification cache of 60 s: a revocation made by the CLI (a third process) or through the
 * console of one process is refused by both long before that cache expires; console events made on
 * one process reach the event stream of the other; a console session signed in on one process works
 * on the other (sessions live in the shared store); a sign-in CSRF value used on one process is
 * refused on the other (one-time, consumed in that store); `wharf token rotate` revokes the old
 * token on both at once and its successor works; `wharf token create --environments prod` (no such
 * environment) is refused and stores nothing.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../setup/redis.js';
import { startGatewayProcess, WHARF_CLI, type GatewayProcess } from '../support/gateway-process.js';
import { copyProject, type TempProject } from '../support/project.js';
import { openSse } from './sse-client.js';

const run = promisify(execFile);

let redis: TestRedis;
let project: TempProject;
let env: NodeJS.ProcessEnv;
const gateways: GatewayProcess[] = [];

async function wharf(...args: string[]): Promise<string[]> {
  const { stdout } = await run(process.execPath, [WHARF_CLI, ...args], { cwd: project.root, env });
  return stdout.trim().split('\n');
}

const call = (gateway: { url: string }, bearer: string) =>
  fetch(`${gateway.url}/api/demo/Weather`, { headers: { authorization: `Bearer ${bearer}` } });

/** Polls until both gateways refuse the token; the bound (2 s) is far below the 60 s cache. */
async function refusedByBoth(secret: string): Promise<number[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const statuses = await Promise.all(gateways.map(async (g) => (await call(g, secret)).status));
    if (statuses.every((status) => status === 401) || attempt === 99) return statuses;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return [];
}

beforeAll(async () => {
  redis = await startRedis();
  project = await copyProject(['endpoints', 'schemas', 'environments', 'generated']);
  await writeFile(path.join(project.root, 'environments/demo/settings.json'), JSON.stringify({ Provider: 'postgres', ConnectionString: 'postgres://127.0.0.1:1/none' }));
  env = {
    ...process.env,
    Redis__Url: redis.url,
    RateLimiting__IpLimit: '10000',
    RateLimiting__TokenLimit: '10000',
    Auth__VerificationCacheSeconds: '60',
    WebUi__SeedPassword: 'seed-password-1',
    HEALTHCHECK_SKIP_PROXY: 'true',
  };
  await wharf('token', 'create', '--username', 'admin-token');
  gateways.push(await startGatewayProcess(project.root, env, 90_000), await startGatewayProcess(project.root, env, 90_000));
}, 240_000);

afterAll(async () => {
  for (const g of gateways) g.child.kill('SIGTERM');
  await project?.remove();
  await redis?.stop();
});

describe('two gateway processes on one Redis: console and CLI', () => {
  it('wharf token revoke reaches both processes at once', async () => {
    const created = await wharf('token', 'create', '--username', 'cli-revoked');
    const secret = created.at(-1)!;
    const id = /^Token (\d+) created/.exec(created[0] ?? '')![1]!;
    for (const g of gateways) expect((await call(g, secret)).status).toBe(502); // through auth to the proxy (its upstream is down); verified and cached for 60 s
    expect(await wharf('token', 'revoke', id)).toEqual([`Token ${id} (cli-revoked) revoked.`]);
    expect(await refusedByBoth(secret)).toEqual([401, 401]);
  }, 60_000);

  it('wharf token rotate: the old value refused by both at once, the successor (new id) works', async () => {
    const created = await wharf('token', 'create', '--username', 'cli-rotated');
    const secret = created.at(-1)!;
    const id = Number(/^Token (\d+) created/.exec(created[0] ?? '')![1]);
    for (const g of gateways) expect((await call(g, secret)).status).toBe(502); // verified and cached for 60 s
    const rotated = await wharf('token', 'rotate', String(id));
    expect(rotated[0]).toBe(`Token ${id} (cli-rotated) rotated: revoked and replaced by token ${id + 1}; the previous value no longer works.`);
    expect(await refusedByBoth(secret)).toEqual([401, 401]);
    for (const g of gateways) expect((await call(g, rotated.at(-1)!)).status).toBe(502);
    const listed = (await wharf('token', 'list', '--all')).filter((line) => line.split('\t')[1] === 'cli-rotated');
    expect(listed.map((line) => [line.split('\t')[0], line.split('\t').at(-1)!.split(' ')[0]])).toEqual([[String(id), 'revoked'], [String(id + 1), 'active']]);
  }, 60_000);

  it('wharf token create --environments prod (not an environment of this project): exit 1, nothing stored', async () => {
    const before = await wharf('token', 'list', '--all');
    const refused = await run(process.execPath, [WHARF_CLI, 'token', 'create', '--username', 'prod-typo', '--environments', 'prod'], { cwd: project.root, env }).then(
      () => null,
      (error: { code: number; stdout: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stdout.trim()).toBe("--environments names unknown environment 'prod' (known: demo); no token created. Check the name, or add --force to create it anyway.");
    expect(await wharf('token', 'list', '--all')).toEqual(before);
  }, 60_000);

  it('a sign-in CSRF value used on A is refused on B (one-time in the shared store)', async () => {
    const [a, b] = [gateways[0]!, gateways[1]!];
    const { csrf } = (await (await fetch(`${a.url}/ui/api/auth/csrf`)).json()) as { csrf: string };
    const signInOn = (gateway: { url: string }) =>
      fetch(`${gateway.url}/ui/api/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `gateway_csrf=${csrf}` },
        body: JSON.stringify({ username: 'admin', password: 'seed-password-1', csrf }),
      });
    const first = await signInOn(a);
    expect(await first.json()).toEqual({ ok: true });
    const replay = await signInOn(b);
    expect(replay.status).toBe(403);
    expect(replay.headers.getSetCookie()).toEqual([]);
    expect((await signInOn(a)).status).toBe(403);
  }, 60_000);

  it('a console session from A works on B; events from A reach B; a console revoke on A is refused by B at once', async () => {
    const [a, b] = [gateways[0]!, gateways[1]!];
    const csrfResponse = await fetch(`${a.url}/ui/api/auth/csrf`);
    const { csrf } = (await csrfResponse.json()) as { csrf: string };
    const signIn = await fetch(`${a.url}/ui/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `gateway_csrf=${csrf}` },
      body: JSON.stringify({ username: 'admin', password: 'seed-password-1', csrf }),
    });
    expect(await signIn.json()).toEqual({ ok: true });
    const cookies = signIn.headers.getSetCookie().map((line) => line.split(';')[0]!);
    const session = cookies.join('; ');
    const sessionCsrf = cookies.find((c) => c.startsWith('gateway_csrf='))!.split('=')[1]!;

    const stream = await openSse(`${b.url}/ui/api/events`, { cookie: session });
    expect(stream.status).toBe(200);
    await stream.waitFor((m) => m.event === 'health');

    const created = await fetch(`${a.url}/ui/api/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session, 'x-csrf-token': sessionCsrf },
      body: JSON.stringify({ username: 'console-made' }),
    });
    expect(created.status).toBe(201);
    const secret = ((await created.json()) as { token: { token: string } }).token.token;
    const event = await stream.waitFor((m) => m.event === 'token_created');
    const id = (event.data as { id: number }).id;
    expect(event.data).toEqual({ id, username: 'console-made' });
    for (const g of gateways) expect((await call(g, secret)).status).toBe(502);

    const revoked = await fetch(`${a.url}/ui/api/tokens/${id}`, { method: 'DELETE', headers: { cookie: session, 'x-csrf-token': sessionCsrf } });
    expect(await revoked.json()).toEqual({ ok: true });
    expect((await stream.waitFor((m) => m.event === 'token_revoked')).data).toEqual({ id, username: 'console-made' });
    expect(await refusedByBoth(secret)).toEqual([401, 401]);
    stream.close();
  }, 60_000);
});
