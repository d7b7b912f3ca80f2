/**
 * Cold start and memory of `wharf start`: time from spawning the command to the first successful
 * API response (200), and the server's RSS then and after 200 more requests. Two projects: the demo
 * (embedded PGlite, its cached data directory under .wharf/) and a generated tree of
 * BENCH_ENDPOINTS (default 1,000) SQL endpoints on a throwaway PostgreSQL. Each case runs
 * BENCH_ROUNDS times (default 3); medians are printed.
 * The server's CPU time until the first 200 is printed too (less sensitive to a busy machine);
 * `BENCH_SKIP_DEMO=1` measures only the generated tree. `BENCH_WHARF=<dir>` measures another checkout's scripts/wharf.mjs (e.g. an export of an older
 * commit sharing this node_modules) for a before/after comparison.
 * Run alone with `node --import tsx bench/cold-start.ts`.
 */
import { execFile as execFileCb, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startPostgres } from '../test/setup/postgres.js';
import { freePort } from '../test/setup/free-port.js';
import { copyProject, REPO_ROOT } from '../test/support/project.js';

const execFile = promisify(execFileCb);
const WHARF_DIR = process.env['BENCH_WHARF'] ?? REPO_ROOT;
const WHARF = path.join(WHARF_DIR, 'scripts', 'wharf.mjs');
const ENDPOINTS = Number(process.env['BENCH_ENDPOINTS'] ?? 1000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** CPU time (user + system) the process has used, in ms: less sensitive to a busy machine than wall time. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in clock ticks of 10 ms
}

async function createToken(root: string): Promise<string> {
  const { stdout } = await execFile(process.execPath, [path.join(REPO_ROOT, 'scripts', 'wharf.mjs'), 'token', 'create', '--username', `bench${Date.now()}`], { cwd: root });
  return /whf_\S+/.exec(stdout)![0];
}

interface Measure {
  readonly coldMs: number;
  readonly cpuMs: number;
  readonly rssFirst: number;
  readonly rssAfter: number;
}

async function measure(root: string, token: string, apiPath: string): Promise<Measure> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [WHARF, 'start', '--root', root, '--port', String(port)], {
    cwd: WHARF_DIR,
    env: { ...process.env, Logging__MinLevel: 'warn', RateLimiting__Enabled: 'false' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}${apiPath}`;
  const headers = { authorization: `Bearer ${token}` };
  try {
    for (;;) {
      const ok = await fetch(url, { headers }).then((r) => r.ok, () => false);
      if (ok) break;
      if (performance.now() - started > 120_000) throw new Error('no 200 within 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    const coldMs = Math.round(performance.now() - started);
    const cpu = await cpuMs(child.pid!);
    const rssFirst = await rssMb(child.pid!);
    for (let i = 0; i < 200; i += 1) await fetch(url, { headers }).then((r) => r.arrayBuffer());
    return { coldMs, cpuMs: cpu, rssFirst, rssAfter: await rssMb(child.pid!) };
  } finally {
    child.kill('SIGKILL');
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function report(name: string, root: string, token: string, apiPath: string): Promise<void> {
  const runs: Measure[] = [];
  for (let i = 0; i < ROUNDS; i += 1) runs.push(await measure(root, token, apiPath));
  console.log(
    `${name}: cold start ${median(runs.map((r) => r.coldMs))} ms (runs ${runs.map((r) => r.coldMs).join(', ')}; ` +
      `server CPU until then ${median(runs.map((r) => r.cpuMs))} ms), ` +
      `RSS at first 200 ${median(runs.map((r) => r.rssFirst))} MB, after 200 requests ${median(runs.map((r) => r.rssAfter))} MB`,
  );
}

async function generatedTree(pgUrl: string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'wharf-bench-tree-'));
  await copyProject(['schemas']).then(async (p) => {
    await execFile('cp', ['-r', path.join(p.root, 'schemas'), root]);
    await p.remove();
  });
  for (let i = 0; i < ENDPOINTS; i += 1) {
    const dir = path.join(root, 'endpoints', 'SQL', `Gen${i}`, 'Products');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'entity.json'),
      JSON.stringify({
        DatabaseSchema: 'inventory',
        DatabaseObjectName: 'Products',
        PrimaryKey: 'ProductId',
        AllowedColumns: ['ProductId', 'Sku', 'ProductName;Name', 'CategoryId', 'UnitPrice;Price', 'UnitsInStock;Stock', 'CreatedAt'],
        AllowedMethods: ['GET', 'QUERY'],
      }),
    );
  }
  await mkdir(path.join(root, 'environments', 'demo'), { recursive: true });
  await writeFile(path.join(root, 'environments', 'settings.json'), JSON.stringify({ Environment: { AllowedEnvironments: ['demo'] } }));
  await writeFile(path.join(root, 'environments', 'demo', 'settings.json'), JSON.stringify({ Provider: 'postgres', ConnectionString: pgUrl }));
  await execFile(process.execPath, [path.join(REPO_ROOT, 'scripts', 'wharf.mjs'), 'build', '--root', root, '--no-docs'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
  return root;
}

const demo = await copyProject(['endpoints', 'schemas', 'environments', 'generated']);
const pg = await startPostgres();
let tree: string | null = null;
try {
  console.log(`wharf: ${WHARF}; node ${process.version}; ${ROUNDS} rounds, medians`);
  if (!process.env['BENCH_SKIP_DEMO']) await report('demo (PGlite, cached data dir)', demo.root, await createToken(demo.root), '/api/demo/Inventory/Products?$top=5');
  tree = await generatedTree(pg.url);
  await report(`${ENDPOINTS} generated endpoints (PostgreSQL)`, tree, await createToken(tree), `/api/demo/Gen${ENDPOINTS - 1}/Products?$top=5`);
} finally {
  await demo.remove();
  if (tree) await rm(tree, { recursive: true, force: true });
  await pg.stop();
}
