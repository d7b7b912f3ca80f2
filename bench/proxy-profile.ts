/**
 * Server CPU per small proxied request, and a CPU profile (issue 30): the bench's Wharf proxy
 * (bench/proxy.ts settings: token auth + rate limiting on, cache off, loggers off) or the bare undici
 * forwarder in this process, the upstream in its own process, autocannon (32 connections) at a
 * fixed rate in its own, so every server batches alike and CPU per request compares on a shared machine.
 *
 *   node --import tsx bench/proxy-profile.ts [wharf|bare] [seconds=4] [rate=2000] [rounds=3]
 *
 * BENCH_PROFILE=0: without the profiler. Prints CPU µs per request of this process per round, and the
 * heaviest functions of the last round's profile.
 */
import { spawn, execFile as execFileCb } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { buildServer } from '../runtime/server.js';
import { createTempProject } from '../runtime/testing/generated-fixture.js';
import { gatewayOf } from '../runtime/gateway-handle.js';
import { heaviest } from './profile-top.js';
import { bareForwarder } from './proxy.js';

const execFile = promisify(execFileCb);
const CLI = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const [system = 'wharf', seconds = '4', rate = '2000', rounds = '3'] = process.argv.slice(2);

const UPSTREAM = `const body = Buffer.from(JSON.stringify({ id: 42, name: 'Widget', price: 9.95, tags: ['a', 'b'], stock: { warehouse: 'RTM', count: 17 } }));
const s = require('node:http').createServer((q, r) => { r.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }); r.end(body); });
s.keepAliveTimeout = 60000; s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));`;

const upstream = spawn(process.execPath, ['-e', UPSTREAM], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<string>((resolve) => upstream.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
const origin = `http://127.0.0.1:${port}`;

let url: string;
let headers: Record<string, string> = {};
let close: () => Promise<void>;
if (system === 'bare') {
  const bare = await bareForwarder(origin);
  url = `${bare.url}/small`;
  close = bare.close;
} else {
  const project = await createTempProject({
    generated: { endpoints: [{ kind: 'proxy', routePath: 'Small', methods: ['GET'], overrides: { url: `${origin}/small` } }] },
    serverSettings: {
      Environment: { AllowedEnvironments: ['demo'] },
      RateLimiting: { Enabled: true, IpLimit: 1_000_000, IpWindow: 1, TokenLimit: 1_000_000, TokenWindow: 1 },
      Caching: { Enabled: false },
      Logging: { MinLevel: 'warn' },
    },
    environments: { demo: { Provider: 'embedded' } },
  });
  const app = await buildServer({ generatedDir: project.generatedDir, environmentsDir: project.environmentsDir, dataDir: path.join(project.root, 'data'), env: {}, logger: false });
  const { token } = await gatewayOf(app).access.tokens.create({ username: 'bench' });
  headers = { authorization: `Bearer ${token}` };
  url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/demo/Small`;
  close = async () => { await app.close(); await project.cleanup(); };
}

async function load(secs: number): Promise<{ total: number; errors: number; p99: number }> {
  const args = [CLI, '-j', '-c', '32', '-d', String(secs), '-R', rate];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const { stdout } = await execFile(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as { requests: { total: number }; errors: number; non2xx: number; latency: { p99: number } };
  return { total: r.requests.total, errors: r.errors + r.non2xx, p99: r.latency.p99 };
}

try {
  await load(2);
  const profiled = process.env['BENCH_PROFILE'] !== '0';
  const session = new Session();
  for (let round = 0; round < Number(rounds); round++) {
    const last = round === Number(rounds) - 1;
    if (profiled && last) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
    }
    const before = process.cpuUsage();
    const r = await load(Number(seconds));
    const used = process.cpuUsage(before);
    console.log(`${system} round ${round + 1}${profiled && last ? ' (profiler on)' : ''}: ${((used.user + used.system) / Math.max(1, r.total)).toFixed(1)} µs/req, ${r.total} requests, p99 ${r.p99} ms, errors ${r.errors}`);
    if (profiled && last) {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Parameters<typeof heaviest>[0] };
      session.disconnect();
      const out = `/tmp/proxy-${system}.cpuprofile`;
      await writeFile(out, JSON.stringify(profile));
      console.log(`profile ${out}`);
      for (const line of heaviest(profile, 45)) console.log(line);
    }
  }
} finally {
  await close();
  upstream.kill();
}
