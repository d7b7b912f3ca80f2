/** autocannon's CLI in its own process, so load generation does not share the server's event loop. */
import { execFile as execFileCb } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly p99: number };
  readonly errors: number;
  readonly non2xx: number;
}

export interface LoadResult {
  readonly rps: number;
  readonly p99: number;
  readonly errors: number;
  readonly total: number;
}

const execFile = promisify(execFileCb);
const AUTOCANNON_CLI = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export async function load(url: string, duration: number, connections: number, headers: Record<string, string> = {}): Promise<LoadResult> {
  const args = [AUTOCANNON_CLI, '-j', '-c', String(connections), '-d', String(duration)];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  const { stdout } = await execFile(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as AutocannonResult;
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx, total: r.requests.total };
}
