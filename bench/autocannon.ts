/** autocannon's CLI in its own process, so load generation does not share the servers' event loop. */
import { execFile as execFileCb } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);
const CLI = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface LoadResult {
  readonly rps: number;
  readonly p99: number;
  /** Socket errors plus non-2xx answers. */
  readonly errors: number;
  readonly mbPerSecond: number;
  readonly total: number;
}

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly headers?: Readonly<Record<string, string>>;
}

export async function autocannon(url: string, options: LoadOptions): Promise<LoadResult> {
  const args = [CLI, '-j', '-c', String(options.connections), '-d', String(options.seconds)];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  const { stdout } = await execFile(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p99: number };
    throughput: { average: number };
    errors: number;
    non2xx: number;
  };
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx, mbPerSecond: r.throughput.average / 1024 / 1024, total: r.requests.total };
}

/** The same load, positional form. */
export function load(url: string, seconds: number, connections: number, headers: Record<string, string> = {}): Promise<LoadResult> {
  return autocannon(url, { connections, seconds, headers });
}
