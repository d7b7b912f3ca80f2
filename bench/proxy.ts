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
        { kind: 'proxy', routePath: 'Small', methods: ['GET'], model: { url: `${origin}/small` } },
        { kind: 'proxy', routePath: 'Large', methods: ['GET'], model: { url: `${origin}/large` } },
        { kind: 'proxy', routePath: 'SmallRetry', methods: ['GET'], model: { url: `${origin}/small`, retry: { attempts: 3, delayMs: 100 }, fallbackUrls: [`${fallback}/small`] } },
      ],
    },
    serverSettings: {
      Environment: { AllowedEnvironments: ['demo'] },
      RateLimiting: { Enabled: true, IpLimit: 1_000_000_000, TokenLimit: 1_000_000_000 },
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

function line(name: string, r: LoadResult): string {
  return `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ${r.mbPerSecond.toFixed(1).padStart(7)} MB/s  errors ${r.errors}`;
}

export async function runProxyBench(): Promise<void> {
  const upstream = await startUpstream();
  const standby = await startUpstream();
  const bare = await bareForwarder(upstream.origin);
  const gw = await wharf(upstream.origin, standby.origin);
  const auth = { authorization: `Bearer ${gw.token}` };
  const run = async (url: string, headers: Record<string, string> = {}) => {
    await autocannon(url, { connections: CONNECTIONS, seconds: 2, headers }); // warm-up
    return autocannon(url, { connections: CONNECTIONS, seconds: SECONDS, headers });
  };
  try {
    console.log(`${CONNECTIONS} connections, ${SECONDS} s per measurement, small body ${SMALL.length} B, large body ${LARGE.length} B`);
    const bareSmall = await run(`${bare.url}/small`);
    console.log(line('bare undici forwarder, small', bareSmall));
    const wharfSmall = await run(`${gw.url}/api/demo/Small`, auth);
    console.log(line('wharf proxy, small', wharfSmall));
    const wharfRetry = await run(`${gw.url}/api/demo/SmallRetry`, auth);
    console.log(line('wharf proxy + retry/fallback, small', wharfRetry));
    const bareLarge = await run(`${bare.url}/large`);
    console.log(line('bare undici forwarder, 1 MB', bareLarge));
    const wharfLarge = await run(`${gw.url}/api/demo/Large`, auth);
    console.log(line('wharf proxy, 1 MB', wharfLarge));
    console.log(`ratio small  wharf/bare: ${(wharfSmall.rps / bareSmall.rps).toFixed(2)} (target >= 0.8)`);
    console.log(`ratio 1 MB   wharf/bare: ${(wharfLarge.rps / bareLarge.rps).toFixed(2)} (target >= 0.8)`);
    console.log(`retry/fallback configured, not triggered: ${((1 - wharfRetry.rps / wharfSmall.rps) * 100).toFixed(1)} % slower (target < 5 %)`);
  } finally {
    await gw.close();
    await bare.close();
    upstream.close();
    standby.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runProxyBench();
