/** Load generation for the benchmarks: autocannon's CLI in its own process, JSON results. */
import { execFile as execFileCb } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);
const AUTOCANNON_CLI = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface LoadResult {
  readonly rps: number;
  readonly p99: number;
  readonly errors: number;
}

interface AutocannonJson {
  readonly requests: { readonly average: number };
  readonly latency: { readonly p99: number };
  readonly errors: number;
  readonly non2xx: number;
}

export async function load(url: string, durationS: number, connections: number, headers: Record<string, string> = {}): Promise<LoadResult> {
  const args = [AUTOCANNON_CLI, '-j', '-c', String(connections), '-d', String(durationS)];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  const { stdout } = await execFile(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as AutocannonJson;
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** The round with the median req/s (its p99 with it). */
export function median(results: readonly LoadResult[]): LoadResult {
  const sorted = [...results].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)] as LoadResult;
}
