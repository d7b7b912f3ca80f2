/**
 * Request-logging cost: the same cheap request (GET /health/live with an OData-like query, so the
 * logged URL is redacted and of typical length) against the real buildServer with logging off,
 * at `warn` (the production setting: requests are not logged) and at `info` (the default: one JSON
 * line per request), written to a real file. The cheapest route shows the worst-case share.
 * autocannon, 10 connections; prints the server's CPU time per request (robust on a shared
 * machine, unlike req/s), req/s, p99 and bytes per request, each against "off".
 * Run alone with `node --import tsx bench/logging.ts`.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer } from '../runtime/server.js';
import { createTempProject } from '../runtime/testing/generated-fixture.js';
import { load, type LoadResult } from './autocannon.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 10);
const CONNECTIONS = 10;
const PATH = '/health/live?$filter=Price%20gt%20100%20and%20CategoryId%20eq%203&$orderby=Price%20desc&$top=50';

type Variant = 'off' | 'warn' | 'info';
type Measured = LoadResult & { bytes: number; cpuUs: number };

async function measure(variant: Variant, root: string, generatedDir: string, environmentsDir: string): Promise<Measured> {
  const file = path.join(root, `log-${variant}.jsonl`);
  const stream = createWriteStream(file);
  const app = await buildServer({
    generatedDir,
    environmentsDir,
    dataDir: path.join(root, `data-${variant}`),
    env: {},
    logger: variant === 'off' ? false : { level: variant, stream },
  });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${PATH}`;
    await load(url, 1, CONNECTIONS);
    const before = (await stat(file)).size;
    const cpuBefore = process.cpuUsage();
    const result = await load(url, DURATION_S / 6, CONNECTIONS);
    const cpu = process.cpuUsage(cpuBefore);
    await new Promise((r) => setTimeout(r, 200));
    const bytes = ((await stat(file)).size - before) / Math.max(1, result.total);
    return { ...result, bytes, cpuUs: (cpu.user + cpu.system) / Math.max(1, result.total) };
  } finally {
    await app.close();
    stream.end();
  }
}

export async function runLoggingBench(): Promise<void> {
  const project = await createTempProject({
    generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
    serverSettings: { Environment: { ServerName: 'bench', AllowedEnvironments: ['demo'] }, RateLimiting: { Enabled: false } },
  });
  try {
    // two rounds in mirrored order (off warn info info warn off) so drift in machine load hits all
    await measure('info', project.root, project.generatedDir, project.environmentsDir); // JIT warm-up, discarded
    const runs: Array<[Variant, Measured]> = [];
    for (const variant of ['off', 'warn', 'info', 'info', 'warn', 'off'] as const) {
      runs.push([variant, await measure(variant, project.root, project.generatedDir, project.environmentsDir)]);
    }
    const results = (['off', 'warn', 'info'] as const).map((variant): [Variant, Measured] => {
      const [a, b] = runs.filter(([v]) => v === variant).map(([, r]) => r);
      return [variant, { rps: (a!.rps + b!.rps) / 2, p99: Math.max(a!.p99, b!.p99), errors: a!.errors + b!.errors, total: a!.total + b!.total, mbPerSecond: (a!.mbPerSecond + b!.mbPerSecond) / 2, bytes: (a!.bytes + b!.bytes) / 2, cpuUs: (a!.cpuUs + b!.cpuUs) / 2 }];
    });
    const off = results[0]![1];
    console.log(`request logging, GET /health/live?<query>, ${CONNECTIONS} connections, 2 x ${(DURATION_S / 6).toFixed(1)} s each, log to a file`);
    for (const [variant, r] of results) {
      const label = variant === 'off' ? 'logger off' : `MinLevel ${variant}`;
      const extra = r.cpuUs - off.cpuUs;
      console.log(
        `  ${label.padEnd(14)} ${r.cpuUs.toFixed(0).padStart(4)} µs CPU/request (${extra >= 0 ? '+' : ''}${extra.toFixed(0)} vs off)   ` +
          `${r.rps.toFixed(0).padStart(6)} req/s (ratio ${(r.rps / off.rps).toFixed(2)})   p99 ${r.p99} ms   ${r.bytes.toFixed(0).padStart(4)} bytes/request   errors ${r.errors}`,
      );
    }
  } finally {
    await project.cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runLoggingBench();
}
