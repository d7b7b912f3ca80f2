/**
 * Dev-loop benchmark: time from saving an entity.json to the running `wharf dev` server answering
 * differently (watch debounce + compile + write + reload + swap), over repeated edits; baseline in
 * the same run: the in-process compile alone, which is the floor of that latency.
 * Run alone with `node --import tsx bench/dev-reload.ts`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startDev, demoToken } from '../compiler/cli/serve-command.js';
import { compile } from '../compiler/pipeline.js';
import { copyProject } from '../test/support/project.js';

const EDITS = Number(process.env['BENCH_EDITS'] ?? 12);

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

export async function runDevReloadBench(): Promise<void> {
  const project = await copyProject();
  const quiet = { out: () => undefined, err: () => undefined };
  const env = { RateLimiting__IpLimit: '1000000', RateLimiting__TokenLimit: '1000000' };
  const dev = await startDev({ command: 'dev', rest: [], root: project.root, port: 0, host: '127.0.0.1', docs: false }, quiet, { logger: false, env });
  try {
    const token = (await demoToken(dev.server)) ?? '';
    const url = `${dev.server.url}/api/demo/Weather`;
    const status = async () => (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;
    const file = path.join(project.root, 'endpoints/Proxy/Weather/entity.json');
    const enabled = await readFile(file, 'utf8');
    const disabled = enabled.replace('"Methods"', '"Enabled": false,\n  "Methods"');
    const reloads: number[] = [];
    for (let i = 0; i < EDITS; i++) {
      const [text, want] = i % 2 === 0 ? [disabled, 503] : [enabled, 501];
      const started = performance.now();
      await writeFile(file, text);
      while ((await status()) !== want) await new Promise((r) => setTimeout(r, 5));
      reloads.push(performance.now() - started);
    }
    const compiles: number[] = [];
    for (let i = 0; i < EDITS; i++) {
      const started = performance.now();
      await compile({ root: project.root, docs: false });
      compiles.push(performance.now() - started);
    }
    reloads.sort((a, b) => a - b);
    compiles.sort((a, b) => a - b);
    const median = percentile(reloads, 0.5);
    const compileMedian = percentile(compiles, 0.5);
    console.log(`dev reload: save entity.json -> server answers differently, ${EDITS} edits (16 endpoints)`);
    console.log(`  save -> new answer   median ${median.toFixed(0)} ms   p90 ${percentile(reloads, 0.9).toFixed(0)} ms   max ${(reloads.at(-1) ?? 0).toFixed(0)} ms`);
    console.log(`  compile alone        median ${compileMedian.toFixed(0)} ms (baseline, same run)`);
    console.log(`  ratio save->answer / compile ${(median / compileMedian).toFixed(2)}; target: under 1000 ms ${median < 1000 ? 'OK' : 'ABOVE TARGET'}`);
  } finally {
    await dev.close();
    await project.remove();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runDevReloadBench();
}
