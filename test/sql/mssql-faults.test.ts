/**
 * The SQL Server driver under faults, only when MSSQL_URL is set: a command past the command
 * timeout (`WAITFOR DELAY`) ends as a `timeout` and leaves the pool usable; a server that goes
 * away (every connection cut, nothing listening: what a restart looks like from the client) gives
 * `connection` errors, and the same driver answers again once the server is back, without a new
 * driver. The server is reached through a TCP relay the test controls, since the test cannot
 * restart a server it only knows by URL.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createMssqlDriver } from '../../runtime/sql/drivers/mssql.js';
import { SqlDriverError, type SqlDriver } from '../../runtime/sql/drivers/driver.js';
import { parseMssqlConnectionString } from '../../runtime/contract/connection-string.js';
import { MSSQL_SKIP_REASON, MSSQL_URL, mssqlForms, mssqlIsBabelfish } from './databases.js';

const BABELFISH = MSSQL_URL ? await mssqlIsBabelfish(MSSQL_URL) : false;
/** 20 s of nothing: WAITFOR DELAY; Babelfish has no WAITFOR (refused as unsupported) but reaches PostgreSQL's pg_sleep. */
const SLOW = BABELFISH ? 'SELECT 1 AS x FROM (SELECT pg_catalog.pg_sleep(20) AS s) AS t' : "WAITFOR DELAY '00:00:20'; SELECT 1 AS x";

/** A TCP relay to host:port that can cut every connection and stop/start listening on its port. */
class Relay {
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;
  port = 0;
  constructor(private readonly host: string, private readonly target: number) {}

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target, this.host);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    this.#server = server;
  }

  /** Every connection reset and the port closed: the server "restarts". */
  async stop(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    this.#server = null;
  }
}

const drivers: SqlDriver[] = [];
const relays: Relay[] = [];
afterAll(async () => {
  await Promise.allSettled(drivers.map((d) => d.close()));
  await Promise.allSettled(relays.map((r) => r.stop()));
});

async function failure(work: Promise<unknown>): Promise<SqlDriverError> {
  const error = await work.then(() => null, (e: unknown) => e);
  if (!(error instanceof SqlDriverError)) throw new Error(`expected a SqlDriverError, got ${String(error)}`);
  return error;
}

describe.skipIf(!MSSQL_URL)('SQL Server driver faults (MSSQL_URL)', () => {
  it('a command past the command timeout (WAITFOR DELAY): kind timeout, then the pool answers again', async () => {
    const driver = createMssqlDriver({ connectionString: MSSQL_URL as string, requestTimeoutMs: 2000, pool: { max: 1 } });
    drivers.push(driver);
    expect(await driver.query('SELECT 1 AS x', [])).toEqual([{ x: 1 }]);
    const started = performance.now();
    const error = await failure(driver.query(SLOW, []));
    expect(error.kind).toBe('timeout');
    // the command timeout plus at most tedious's 5 s for the cancel, never the 20 s of the command
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(await driver.query('SELECT 2 AS x', [])).toEqual([{ x: 2 }]);
  }, 90_000);

  it('a server that goes away and comes back: connection errors, then the same driver recovers', async () => {
    const { server, port } = parseMssqlConnectionString(MSSQL_URL as string);
    const relay = new Relay(server, port ?? 1433);
    relays.push(relay);
    await relay.start();
    const driver = createMssqlDriver({ connectionString: mssqlForms(MSSQL_URL as string, { host: '127.0.0.1', port: relay.port }).ado, connectionTimeoutMs: 30_000, pool: { max: 2 } });
    drivers.push(driver);
    expect(await driver.query('SELECT 1 AS x', [])).toEqual([{ x: 1 }]);

    await relay.stop();
    expect((await failure(driver.query('SELECT 1 AS x', []))).kind).toBe('connection');
    expect((await failure(driver.query('SELECT 1 AS x', []))).kind).toBe('connection');

    await relay.start();
    expect(await driver.query('SELECT 3 AS x', [])).toEqual([{ x: 3 }]);
  }, 120_000);
});

if (!MSSQL_URL) describe('SQL Server driver faults', () => {
  it.skip(MSSQL_SKIP_REASON, () => undefined);
});
