/** PostgreSQL through a `pg` Pool. */
import pg from 'pg';
import type { TypedValue } from '../plan.js';
import { classifyPostgresError, type Row, type SqlDriver } from './driver.js';
import { PG_TEXT_PARSERS } from './type-parsers.js';

export interface PgDriverOptions {
  readonly connectionString: string;
  /** Pool size (default 10). */
  readonly max?: number;
  /** Per-statement timeout in ms (default 30 000), enforced by the server. */
  readonly statementTimeoutMs?: number;
  /** Called for errors of idle clients (e.g. the server restarted); the pool replaces them. */
  readonly onConnectionError?: (error: Error) => void;
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const own = PG_TEXT_PARSERS[oid];
    return (own ?? pg.types.getTypeParser(oid, format ?? 'text')) as never;
  },
};

/** Values as `pg` sends them: booleans/numbers as text, decimals unchanged (strings). */
function toPg(p: TypedValue): unknown {
  return p.value;
}

export function createPgDriver(options: PgDriverOptions): SqlDriver {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    connectionTimeoutMillis: 5_000,
    types,
  });
  pool.on('error', (error) => options.onConnectionError?.(error));
  return {
    provider: 'postgres',
    async query(sql: string, params: readonly TypedValue[]): Promise<Row[]> {
      try {
        const result = await pool.query<Row>(sql, params.map(toPg));
        return result.rows;
      } catch (error) {
        throw classifyPostgresError(error);
      }
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}
