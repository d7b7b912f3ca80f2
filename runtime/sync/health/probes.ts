/**
 * Real connection probes with a timeout (spec: 5 seconds): PostgreSQL opens a new connection and
 * runs `SELECT 1`; SQL Server the same through a one-connection pool; the embedded database
 * (in-process, no connection to open) answers `SELECT 1` on its driver; RabbitMQ opens and closes
 * a connection. A probe that does not finish in time fails with "timed out after 5000 ms".
 */
import pg from 'pg';
import sql from 'mssql';
import { parseMssqlConnectionString, parsePostgresConnectionString } from '../../contract/connection-string.js';
import type { SqlDriver } from '../../sql/drivers/driver.js';
import type { SyncProvider } from '../config/model.js';
import { probeRabbitMq } from '../destinations/rabbitmq.js';

export const PROBE_TIMEOUT_MS = 5000;

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function probePostgres(connectionString: string, ms: number): Promise<void> {
  const client = new pg.Client({ ...parsePostgresConnectionString(connectionString), connectionTimeoutMillis: ms, query_timeout: ms });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    void client.end().catch(() => undefined);
  }
}

async function probeMssql(connectionString: string, ms: number): Promise<void> {
  const config = parseMssqlConnectionString(connectionString);
  const pool = new sql.ConnectionPool({ ...config, connectionTimeout: ms, requestTimeout: ms, pool: { min: 0, max: 1 } });
  pool.on('error', () => undefined);
  try {
    await pool.connect();
    await pool.request().query('SELECT 1');
  } finally {
    void pool.close().catch(() => undefined);
  }
}

/** The in-process driver of a connection string, if any (the embedded database). */
export type DriverLookup = (connectionString: string) => SqlDriver | undefined;

export interface DatabaseProbeTarget {
  readonly provider: SyncProvider;
  readonly connectionString: string;
}

export function probeDatabase(target: DatabaseProbeTarget, lookup: DriverLookup | undefined, ms = PROBE_TIMEOUT_MS): Promise<void> {
  const given = lookup?.(target.connectionString);
  const work =
    given !== undefined
      ? given.query('SELECT 1', []).then(() => undefined)
      : target.provider === 'mssql'
        ? probeMssql(target.connectionString, ms)
        : target.provider === 'postgres'
          ? probePostgres(target.connectionString, ms)
          : Promise.reject(new Error('embedded database is not open in this process'));
  return withTimeout(work, ms);
}

export function probeBroker(url: string, ms = PROBE_TIMEOUT_MS): Promise<void> {
  return withTimeout(probeRabbitMq(url), ms);
}
