/**
 * A throwaway PostgreSQL for tests: initdb into a temp dir, start on a free loopback port,
 * load SQL, stop and delete on teardown. initdb/pg_ctl refuse to run as root, so as root they
 * run through `runuser -u postgres --` (docs: shared notes, dependencies §8).
 *
 * Two ways to use it:
 * - vitest globalSetup: `globalSetup: ['test/setup/postgres.ts']` provides `pgUrl`
 *   (tests: `inject('pgUrl')`), one server for the whole run;
 * - per file: `const pg = await startPostgres()` in beforeAll, `await pg.stop()` in afterAll.
 */
import { execFile as execFileCb } from 'node:child_process';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { readDemoSql } from '../../runtime/sql/drivers/pglite.js';
import { freePort } from './free-port.js';
import { partPath } from './system-parts.js';

const execFile = promisify(execFileCb);

export interface TestPostgres {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  /** `pg_ctl -m fast restart`: every connection is ended (57P01), the server is back when this resolves. */
  restart(): Promise<void>;
  /** `pg_ctl -m fast stop`, keeping the data (startServer brings it back on the same port). */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
}

function binary(name: string): string {
  return path.join(partPath('postgres'), name);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

async function asPostgres(cmd: string, args: string[]): Promise<void> {
  if (isRoot) await execFile('runuser', ['-u', 'postgres', '--', cmd, ...args]);
  else await execFile(cmd, args);
}

/** Start a server (on `port`, default a free one) and load `sql` (default: the demo schema + seed); `maxConnections` default 100. */
export async function startPostgres(options: { sql?: string; port?: number; maxConnections?: number } = {}): Promise<TestPostgres> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wharf-pg-'));
  if (isRoot) {
    await chmod(dir, 0o755);
    const { stdout } = await execFile('id', ['-u', 'postgres']);
    const { stdout: gid } = await execFile('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, 'data');
  const port = options.port ?? (await freePort());
  const startServer = (): Promise<void> =>
    asPostgres(binary('pg_ctl'), [
      '-D', data, '-l', path.join(dir, 'log'), '-w', '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off` +
        (options.maxConnections ? ` -c max_connections=${options.maxConnections}` : ''),
      'start',
    ]);
  const restart = (): Promise<void> => asPostgres(binary('pg_ctl'), ['-D', data, '-l', path.join(dir, 'log'), '-m', 'fast', '-w', 'restart']);
  const stopServer = (): Promise<void> => asPostgres(binary('pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  const stop = async (): Promise<void> => {
    await asPostgres(binary('pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await asPostgres(binary('initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
    await startServer();
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(options.sql ?? (await readDemoSql()));
    } finally {
      await client.end();
    }
    return { url, port, stop, restart, stopServer, startServer };
  } catch (error) {
    await stop();
    throw error;
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

let shared: TestPostgres | null = null;

/** vitest globalSetup entry. */
export default async function setup({ provide }: { provide: (key: 'pgUrl', value: string) => void }): Promise<() => Promise<void>> {
  shared = await startPostgres();
  provide('pgUrl', shared.url);
  return async () => {
    await shared?.stop();
    shared = null;
  };
}
