/**
 * A CPU profile of one system of the SQL read benchmark under its load (bench/sql.ts settings:
 * token auth + rate limiting on in Wharf, default log level into /dev/null, cache off, pools of
 * 32, autocannon with 32 connections in its own process). Writes a `.cpuprofile` (open it in
 * Chrome DevTools or speedscope) and prints the heaviest functions by self time.
 *
 *   node --import tsx bench/sql-profile.ts [wharf|dist|hand] [list|byKey] [seconds] [out.cpuprofile]
 *
 * `wharf` runs the server in this process through tsx; `dist` profiles the compiled runtime in its
 * own process, as the bench runs it (`node --cpu-prof`, the whole run including the warm-up), and
 * prints its CPU time per request during the measured load (BENCH_PROFILE=0: without the profiler;
 * settings such as `Logging__MinLevel=warn` pass through the environment to that process).
 */
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { load } from './load.js';
import { processCpuMicros } from './process-cpu.js';
import { CONNECTIONS, HAND_PATHS, startBenchDatabase, startBenchWharf, startBenchWharfInProcess, WHARF_PATHS } from './sql.js';
import { handWrittenSql } from './sql-hand-written.js';
import type { TestPostgres } from '../test/setup/postgres.js';
import { heaviest } from './profile-top.js';
import type { Profile } from './profile-top.js';

const [system = 'wharf', kind = 'byKey', seconds = '8', out = `/tmp/wharf-${system}-${kind}.cpuprofile`] = process.argv.slice(2);

const db = await startBenchDatabase();
const devNull = createWriteStream('/dev/null');
try {
  if (system === 'dist') await profileDist(db);
  else await profileInProcess(db);
} finally {
  await db.stop();
  devNull.end();
}

/** The compiled runtime in its own process under `node --cpu-prof` (warm-up included in the profile). */
async function profileDist(db: TestPostgres): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wharf-prof-'));
  const profiled = process.env['BENCH_PROFILE'] !== '0';
  const wharf = await startBenchWharf(db, profiled ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200'] : []);
  try {
    const target = wharf.base + WHARF_PATHS[kind === 'list' ? 'list' : 'byKey'];
    await load(target, 2, CONNECTIONS, { authorization: wharf.authorization });
    const cpuBefore = processCpuMicros(wharf.pid);
    const result = await load(target, Number(seconds), CONNECTIONS, { authorization: wharf.authorization });
    const cpuUs = (processCpuMicros(wharf.pid) - cpuBefore) / Math.max(1, result.total);
    await wharf.close();
    console.log(`dist ${kind}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms, server CPU ${cpuUs.toFixed(1)} µs/req${profiled ? ' (profiler on)' : ''}, errors ${result.errors}`);
    if (!profiled) return;
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('the compiled runtime wrote no profile');
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
    await writeFile(out, JSON.stringify(profile));
    console.log(`profile ${out} (whole process life)`);
    for (const line of heaviest(profile)) console.log(line);
  } finally {
    await wharf.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `hand` or `wharf` in this process, profiled through the inspector during the measured load. */
async function profileInProcess(db: TestPostgres): Promise<void> {
  let url: string;
  let headers: Record<string, string> = {};
  let close: () => Promise<void>;
  if (system === 'hand') {
    const hand = await handWrittenSql(db.url, 32);
    url = hand.base + HAND_PATHS[kind === 'list' ? 'list' : 'byKey'];
    close = hand.close;
  } else {
    const wharf = await startBenchWharfInProcess(db, devNull);
    url = wharf.base + WHARF_PATHS[kind === 'list' ? 'list' : 'byKey'];
    headers = { authorization: wharf.authorization };
    close = wharf.close;
  }
  try {
    await load(url, 2, CONNECTIONS, headers);
    const profiled = process.env['BENCH_PROFILE'] !== '0';
    const session = new Session();
    if (profiled) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
    }
    const cpuBefore = processCpuMicros(null);
    const result = await load(url, Number(seconds), CONNECTIONS, headers);
    const cpuUs = (processCpuMicros(null) - cpuBefore) / Math.max(1, result.total);
    console.log(`${system} ${kind}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms, server CPU ${cpuUs.toFixed(1)} µs/req${profiled ? ' (profiler on)' : ''}, errors ${result.errors}`);
    if (!profiled) return;
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    session.disconnect();
    await writeFile(out, JSON.stringify(profile));
    console.log(`profile ${out}`);
    for (const line of heaviest(profile)) console.log(line);
    console.log(`by area, µs of CPU per request (the non-idle samples scaled to the ${cpuUs.toFixed(1)} µs measured):`);
    for (const line of byArea(profile, cpuUs)) console.log(line);
  } finally {
    await close();
  }
}

/**
 * Self time by where the code lives: `runtime/<area>` (Wharf from source, so this is for `wharf`
 * and `hand`: the compiled runtime is one bundle), each package under node_modules, Node's own
 * modules, and native frames (socket writes, the collector) by name.
 */
function byArea(profile: Profile, cpuUs: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areas = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const { functionName, url } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    busy += 1;
    const area = /\/runtime\/([^/]+)\//.exec(url)?.[1] ?? (/\/runtime\/[^/]+\.ts$/.test(url) ? 'runtime' : null);
    const key = area !== null ? `runtime/${area}`
      : url.includes('node_modules/') ? url.replace(/^.*node_modules\//, '').split('/')[0]!
        : url.startsWith('node:') ? 'node (JavaScript)'
          : url.includes('/bench/') ? 'bench' : `${functionName || '(anonymous)'} (native)`;
    areas.set(key, (areas.get(key) ?? 0) + 1);
  }
  return [...areas].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, n]) => `${((cpuUs * n) / Math.max(1, busy)).toFixed(1).padStart(7)}  ${k}`);
}
