/**
 * Proxy benchmark: a Wharf Proxy endpoint (real runtime: token auth and rate limiting on, cache
 * off, loggers off) against a bare undici forwarder in fastify (one keep-alive Pool, streams the
 * body), both in front of the same loopback upstream, same run, 32 connections. Small JSON and
 * 1 MB bodies; plus the small case with Retry + FallbackUrls configured but never triggered.
 * (@fastify/http-proxy is not installed, so it is not compared.) Prints req/s, p99 and ratios.
 * Run alone with `npm run bench -- proxy`; BENCH_DURATION (seconds, default 8) per measurement.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { buildServer } from '../runtime/server.js';
import { createTempProject } from '../runtime/testing/generated-fixture.js';
import { autocannon } from './autocannon.js';
import type { LoadResult } from './autocannon.js';

const SECONDS = Number(process.env['BENCH_DURATION'] ?? 8);
const CONNECTIONS = 32;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
const SMALL = Buffer.from(JSON.stringify({ id: 42, name: 'Widget', price: 9.95, tags: ['a', 'b'], stock: { warehouse: 'RTM', count: 17 } }));
const LARGE = Buffer.from(JSON.stringify({ blob: 'x'.repeat(1024 * 1024 - 12) }));

async function startUpstream(): Promise<{ origin: string; close: () => void }> {
  const server = createServer((req, res) => {
    const body = req.url?.startsWith('/large') ? LARGE : SMALL;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** The baseline: what a hand-written forwarder on the same client library does. */
async function bareForwarder(origin: string) {
  const pool = new Pool(origin, { connections: 64 });
  const app = Fastify({ logger: false });
  app.get('/*', async (request, reply) => {
    const response = await pool.request({ path: request.url, method: 'GET', headers: { accept: 'application/json' } });
    reply.code(response.statusCode);
    reply.header('content-type', response.headers['content-type']);
    return reply.send(response.body);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: async () => { await app.close(); await pool.close(); } };
}

async function wharf(origin: string, fallback: string) {
  const project = await createTempProject({
    generated: {
      endpoints: [
        { kind: 'proxy', routePath: 'Small', methods: ['GET'], overrides: { url: `${origin}/small` } },
        { kind: 'proxy', routePath: 'Large', methods: ['GET'], overrides: { url: `${origin}/large` } },
        { kind: 'proxy', routePath: 'SmallRetry', methods: ['GET'], overrides: { url: `${origin}/small`, retry: { attempts: 3, delayMs: 100 }, fallbackUrls: [`${fallback}/small`] } },
      ],
    },
    serverSettings: {
      Environment: { AllowedEnvironments: ['demo'] },
      RateLimiting: { Enabled: true, IpLimit: 1_000_000, IpWindow: 1, TokenLimit: 1_000_000, TokenWindow: 1 },
      Caching: { Enabled: false },
      Logging: { MinLevel: 'warn' },
    },
    environments: { demo: { Provider: 'embedded' } },
  });
  const app = await buildServer({ generatedDir: project.generatedDir, environmentsDir: project.environmentsDir, dataDir: path.join(project.root, 'data'), env: {}, logger: false });
  const { token } = await app.wharf.access.tokens.create({ username: 'bench' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, token, close: async () => { await app.close(); await project.cleanup(); } };
}

function line(name: string, r: LoadResult & { cpuUsPerRequest: number }): string {
  return `${name.padEnd(38)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ${r.mbPerSecond.toFixed(1).padStart(7)} MB/s  cpu ${r.cpuUsPerRequest.toFixed(0).padStart(6)} µs/req  errors ${r.errors}`;
}

export async function runProxyBench(): Promise<void> {
  const upstream = await startUpstream();
  const standby = await startUpstream();
  const bare = await bareForwarder(upstream.origin);
  const gw = await wharf(upstream.origin, standby.origin);
  const auth = { authorization: `Bearer ${gw.token}` };
  /** Throughput, plus CPU time of this process (servers and upstream) per request: steadier than req/s on a busy machine. */
  const run = async (url: string, headers: Record<string, string> = {}) => {
    await autocannon(url, { connections: CONNECTIONS, seconds: 2, headers }); // warm-up
    const before = process.cpuUsage();
    const result = await autocannon(url, { connections: CONNECTIONS, seconds: SECONDS, headers });
    const used = process.cpuUsage(before);
    return { ...result, cpuUsPerRequest: (used.user + used.system) / Math.max(1, result.total) };
  };
  const cases: [string, string, Record<string, string>][] = [
    ['bare undici forwarder, small', `${bare.url}/small`, {}],
    ['wharf proxy, small', `${gw.url}/api/demo/Small`, auth],
    ['wharf proxy + retry/fallback, small', `${gw.url}/api/demo/SmallRetry`, auth],
    ['bare undici forwarder, 1 MB', `${bare.url}/large`, {}],
    ['wharf proxy, 1 MB', `${gw.url}/api/demo/Large`, auth],
  ];
  const best = new Map<string, LoadResult & { cpuUsPerRequest: number }>();
  try {
    console.log(`${CONNECTIONS} connections, ${SECONDS} s per measurement, ${ROUNDS} interleaved rounds (best kept), small body ${SMALL.length} B, large body ${LARGE.length} B`);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, url, headers] of cases) {
        const result = await run(url, headers);
        console.log(line(`${name} #${round}`, result));
        if ((best.get(name)?.rps ?? -1) < result.rps) best.set(name, result);
      }
    }
    const rps = (name: string) => best.get(name)!.rps;
    console.log(`ratio small  wharf/bare: ${(rps('wharf proxy, small') / rps('bare undici forwarder, small')).toFixed(2)} (target >= 0.8)`);
    console.log(`ratio 1 MB   wharf/bare: ${(rps('wharf proxy, 1 MB') / rps('bare undici forwarder, 1 MB')).toFixed(2)} (target >= 0.8)`);
    const cpu = (name: string) => best.get(name)!.cpuUsPerRequest;
    console.log(`cpu per request wharf/bare: small ${(cpu('wharf proxy, small') / cpu('bare undici forwarder, small')).toFixed(2)}x, 1 MB ${(cpu('wharf proxy, 1 MB') / cpu('bare undici forwarder, 1 MB')).toFixed(2)}x; retry configured vs not: ${(cpu('wharf proxy + retry/fallback, small') / cpu('wharf proxy, small')).toFixed(2)}x`);
    console.log(`retry/fallback configured, not triggered: ${((1 - rps('wharf proxy + retry/fallback, small') / rps('wharf proxy, small')) * 100).toFixed(1)} % slower (target < 5 %)`);
  } finally {
    await gw.close();
    await bare.close();
    upstream.close();
    standby.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runProxyBench();
