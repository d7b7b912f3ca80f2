/**
 * Several instances behind a load balancer (docs/deployment.md): two compiled gateway processes on
 * one real PostgreSQL (data and token store) and one real Redis, behind nginx and HAProxy started
 * from the machine's packages with the very configurations the docs show (docs/examples/). Both
 * instances are restarted one after the other (SIGTERM, start again on the same port) while writes
 * (PATCH) flow through both balancers:
 *   - behind nginx (round robin, proxy_next_upstream error timeout, no health check) at most 0.5 %
 *     of the writes fail: only a connection caught in the kernel's accept queue when the port
 *     closes is lost, and nginx does not resend a PATCH it has sent;
 *   - behind HAProxy with its readiness check (/health/ready) none fails;
 *   - a console event stream held through HAProxy is cut when its instance stops accepting and,
 *     resumed with Last-Event-ID on the other instance, has every event once, in order.
 * Short shutdown settings keep it quick (delay 2 s, timeout 6 s).
 */
import { execFile as execFileCb } from 'node:child_process';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../setup/free-port.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startRedis, type TestRedis } from '../setup/redis.js';
import { openSse, type SseMessage } from '../admin/sse-client.js';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { startHaproxy, startNginx, type Haproxy, type LoadBalancer } from '../support/load-balancers.js';
import type { TempProject } from '../support/project.js';
import { postgresProject, WHARF } from '../operations/server-process.js';

const execFile = promisify(execFileCb);

let pg: TestPostgres;
let redis: TestRedis;
let project: TempProject;
let env: NodeJS.ProcessEnv;
let token: string;
const ports: number[] = [];
const instances: GatewayProcess[] = [];
let nginx: LoadBalancer;
let haproxy: Haproxy;

const exited = (child: GatewayProcess['child']): Promise<number | string> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode ?? child.signalCode ?? -1)
    : new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));

async function readyAt(port: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.status, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`instance on ${port} not ready`);
}

async function haproxyUp(servers: readonly string[]): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const states = await haproxy.serverStates();
    if (servers.every((server) => states[server] === 'UP')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`HAProxy does not see ${servers.join(', ')} UP: ${JSON.stringify(await haproxy.serverStates())}`);
}

beforeAll(async () => {
  [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  project = await postgresProject(pg.url);
  env = {
    ...process.env,
    Redis__Url: redis.url,
    Auth__Store__Provider: 'Postgres',
    Auth__Store__ConnectionString: pg.url,
    Server__ShutdownDelaySeconds: '2', // the default, longer than HAProxy's inter x fall (500 ms) on a busy machine
    Server__ShutdownTimeoutSeconds: '6',
    RateLimiting__Enabled: 'false',
    Caching__Enabled: 'false',
    HEALTHCHECK_SKIP_PROXY: 'true',
  };
  const { stdout } = await execFile(process.execPath, [WHARF, 'token', 'create', '--username', 'rolling'], { cwd: project.root, env });
  token = /whf_\S+/.exec(stdout)![0];
  ports.push(await freePort(), await freePort());
  instances.push(...(await Promise.all(ports.map((port) => startGatewayProcess(project.root, env, 90_000, port)))));
  const upstreams = ports.map((port) => `127.0.0.1:${port}`) as [string, string];
  [nginx, haproxy] = await Promise.all([startNginx(upstreams), startHaproxy(upstreams)]);
}, 240_000);

afterAll(async () => {
  for (const instance of instances) instance.child.kill('SIGKILL');
  await Promise.all([nginx?.stop(), haproxy?.stop()]);
  await project?.remove();
  await Promise.all([redis?.stop(), pg?.stop()]);
});

interface Tally {
  ok: number;
  failed: Map<string, number>;
}

/** Writes through `lb` with `workers` keep-alive connections until `running()` is false. */
async function writeLoad(lb: LoadBalancer, workers: number, running: () => boolean): Promise<Tally> {
  const pool = new Pool(lb.url, { connections: workers });
  const tally: Tally = { ok: 0, failed: new Map() };
  let n = 0;
  const worker = async (warehouse: number): Promise<void> => {
    while (running()) {
      const capacity = 100 + (n++ % 1000);
      let outcome: string;
      try {
        const res = await pool.request({
          path: `/api/demo/Inventory/Warehouses/${warehouse}`,
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ Capacity: capacity }),
          headersTimeout: 10_000,
        });
        const text = await res.body.text();
        outcome = res.statusCode === 200 ? 'ok' : `${res.statusCode} ${text.slice(0, 120)}`;
      } catch (error) {
        outcome = (error as { code?: string }).code ?? String(error);
      }
      if (outcome === 'ok') tally.ok += 1;
      else tally.failed.set(outcome, (tally.failed.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, i) => worker((i % 3) + 1)));
  await pool.destroy();
  return tally;
}

/** An event stream through `lb` that reconnects with Last-Event-ID whenever the server ends it. */
function followEvents(lb: LoadBalancer, running: () => boolean): { messages: SseMessage[]; reconnects: () => number; done: Promise<void> } {
  const messages: SseMessage[] = [];
  let reconnects = -1;
  const done = (async () => {
    while (running()) {
      const last = messages.filter((m) => m.id !== undefined).at(-1)?.id;
      const stream = await openSse(`${lb.url}/ui/api/events`, { authorization: `Bearer ${token}`, ...(last ? { 'last-event-id': last } : {}) }).catch(() => null);
      if (!stream || stream.status !== 200) {
        stream?.close();
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      reconnects += 1;
      let seen = 0;
      const copy = setInterval(() => {
        for (; seen < stream.messages.length; seen++) messages.push(stream.messages[seen]!);
      }, 5);
      await Promise.race([stream.ended, new Promise<void>((resolve) => { const t = setInterval(() => { if (!running()) { clearInterval(t); resolve(); } }, 20); })]);
      clearInterval(copy);
      for (; seen < stream.messages.length; seen++) messages.push(stream.messages[seen]!);
      stream.close();
    }
  })();
  return { messages, reconnects: () => reconnects, done };
}

describe('a rolling restart of two instances behind nginx and HAProxy', () => {
  it('loses at most 0.5 % of writes behind nginx, none behind HAProxy, and no event of a resumed stream', async () => {
    let running = true;
    const isRunning = () => running;
    let eventsRunning = true;
    const events = followEvents(haproxy, () => eventsRunning);
    // console events during the restart: a token created through HAProxy every 100 ms
    const created: string[] = [];
    const producer = (async () => {
      for (let i = 0; running; i++) {
        const res = await fetch(`${haproxy.url}/ui/api/tokens`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ username: `rolling-${i}` }),
        }).catch(() => null);
        if (res?.status === 201) created.push(`rolling-${i}`);
        await res?.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const loads = { nginx: writeLoad(nginx, 6, isRunning), haproxy: writeLoad(haproxy, 6, isRunning) };
    const exitCodes: (number | string)[] = [];
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const index of [0, 1]) {
      const old = instances[index]!;
      old.child.kill('SIGTERM');
      exitCodes.push(await exited(old.child));
      instances[index] = await startGatewayProcess(project.root, env, 60_000, ports[index]);
      await readyAt(ports[index]!);
      // as a deployment would: the next instance stops only once the balancers use this one again
      // (HAProxy's checks say UP; nginx retries a failed server after fail_timeout, 1 s)
      await haproxyUp(['a', 'b']);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    running = false;
    const [viaNginx, viaHaproxy] = await Promise.all([loads.nginx, loads.haproxy]);
    await producer;
    await new Promise((resolve) => setTimeout(resolve, 300)); // the last events arrive
    eventsRunning = false;
    await events.done;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);

    const figures = (t: Tally) => ({ ok: t.ok, failed: Object.fromEntries(t.failed), total: t.ok + [...t.failed.values()].reduce((a, b) => a + b, 0) });
    const report = { seconds, exitCodes, nginx: figures(viaNginx), haproxy: figures(viaHaproxy), eventStreams: events.reconnects() + 1, events: created.length };
    console.log(`rolling restart: ${JSON.stringify(report)}`);

    expect(exitCodes).toEqual([0, 0]);
    const nginxFailed = report.nginx.total - report.nginx.ok;
    expect(report.nginx.total).toBeGreaterThan(200);
    expect(nginxFailed / report.nginx.total, JSON.stringify(report)).toBeLessThanOrEqual(0.005);
    expect(report.haproxy.total).toBeGreaterThan(200);
    expect(report.haproxy.failed, `${JSON.stringify(report)}\n${haproxy.output().slice(-3000)}`).toEqual({});

    // the event stream moved (each stopping instance ended it) and, resumed, has every event once, in order
    expect(events.reconnects()).toBeGreaterThanOrEqual(1);
    const received = events.messages.filter((m) => m.event === 'token_created').map((m) => (m.data as { username: string }).username);
    expect(received).toEqual(created);
    const ids = events.messages.filter((m) => m.id !== undefined).map((m) => Number(m.id));
    expect(new Set(ids).size).toBe(ids.length);
  }, 120_000);
});
