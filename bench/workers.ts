/**
 * BENCH_WORKERS=N (a number or `auto`): the SQL bench's Wharf processes, and an extra row of the
 * proxy bench, run `wharf start` with Server:Workers N, so 1 and 2 workers can be compared in
 * separate runs (`BENCH_WORKERS=1 npm run bench -- sql`, then `BENCH_WORKERS=2 ...`). More than one
 * worker needs the stores several instances share (runtime/lifecycle/worker-count.ts), so with
 * BENCH_WORKERS set, 1 included (like for like), those servers also count their rate limits in a
 * Redis started here and keep their tokens in the bench's PostgreSQL. Unset: nothing changes.
 * Their CPU per request is then that of the primary and every worker (processTreeCpuMicros).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { startRedis, type TestRedis } from '../test/setup/redis.js';

export const BENCH_WORKERS: string | null = process.env['BENCH_WORKERS']?.trim() || null;

let redis: Promise<TestRedis> | null = null;

/** Settings sections for one Wharf of a bench when BENCH_WORKERS is set (its own Redis key prefix), else none. */
export async function workerSettings(pgUrl: string, name: string): Promise<Record<string, unknown>> {
  if (BENCH_WORKERS === null) return {};
  redis ??= startRedis();
  return {
    Server: { Workers: BENCH_WORKERS },
    Redis: { Url: (await redis).url, KeyPrefix: `bench-${name}:` },
    Auth: { Store: { Provider: 'Postgres', ConnectionString: pgUrl } },
  };
}

export async function stopWorkerStores(): Promise<void> {
  const started = redis;
  redis = null;
  if (started) await (await started).stop();
}

/** Live child processes of `pid` (/proc). */
function childCount(pid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) count += 1;
    } catch {
      // ended meanwhile
    }
  }
  return count;
}

/**
 * After the first worker answers: waits until the primary has all its workers, then a few seconds
 * for the last to start serving (its log, the only other sign, goes to /dev/null in the bench).
 */
export async function allWorkersUp(primaryPid: number): Promise<void> {
  if (BENCH_WORKERS === null) return;
  const want = BENCH_WORKERS === 'auto' ? availableParallelism() : Number(BENCH_WORKERS);
  for (const until = Date.now() + 60_000; childCount(primaryPid) < want && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 5_000));
}
