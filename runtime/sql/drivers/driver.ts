/**
 * The one boundary that touches a database. Each driver executes compiled SQL with typed
 * parameters and returns plain rows (column name -> JS value), normalised the same way on
 * every PostgreSQL-family driver (see type-parsers.ts).
 */
import type { TypedValue } from '../plan.js';

export type Row = Record<string, unknown>;

export interface SqlDriver {
  readonly provider: 'mssql' | 'postgres' | 'embedded';
  query(sql: string, params: readonly TypedValue[]): Promise<Row[]>;
  close(): Promise<void>;
  /** Connections of the pool (for /metrics); absent on a driver without a pool. */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** Open connections, idle ones among them, and callers waiting for one. */
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/**
 * What went wrong, as far as the caller needs to know:
 * - `connection`: the database is unreachable/restarting (logged as such; the pool recovers by itself);
 * - `value`: a value did not fit the column type (e.g. `Id eq 'abc'` on an integer key): a 400/404;
 * - `timeout`: the command ran past SqlConnectionPooling:CommandTimeout (a 500 with traceId; the
 *   connection was dropped, so a hung database cannot hold the pool);
 * - `query`: anything else (a 500 with traceId; details only in the log).
 */
export type SqlFailureKind = 'connection' | 'value' | 'query' | 'timeout';

export class SqlDriverError extends Error {
  override readonly name = 'SqlDriverError';
  constructor(
    readonly kind: SqlFailureKind,
    message: string,
    /** Driver/database error code (SQLSTATE, errno name, mssql number) for the log. */
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ESOCKET', 'ELOGIN', 'ECONNCLOSED', 'ENOTOPEN']);

/** Raised by a driver's own timer when the database did not answer within the command timeout. */
export class CommandTimeoutError extends Error {
  override readonly name = 'CommandTimeoutError';
  readonly code = 'WHARF_COMMAND_TIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`The database did not answer within ${timeoutMs} ms`);
  }
}

/**
 * `work` or a CommandTimeoutError after `timeoutMs`, whichever comes first; `onTimeout` runs once
 * when the timer wins (e.g. to destroy the connection the work is stuck on).
 */
export function withCommandTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new CommandTimeoutError(timeoutMs));
    }, timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Classify a PostgreSQL/pg/PGlite error by SQLSTATE or errno. */
export function classifyPostgresError(error: unknown): SqlDriverError {
  if (error instanceof CommandTimeoutError) return new SqlDriverError('timeout', error.message, error.code, { cause: error });
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : String(error);
  let kind: SqlFailureKind = 'query';
  // 57014 query_canceled: statement_timeout fired on the server
  if (code === '57014') kind = 'timeout';
  else if (code && (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')) kind = 'connection';
  else if (!code && /Connection terminated|connect|timeout/i.test(message)) kind = 'connection';
  // Every identifier in our SQL comes from the model, so a data exception (class 22: bad text
  // representation, datetime, out of range, ...) or a type error (42804 datatype mismatch, 42883
  // no such operator/function, 42725 ambiguous function, 42P18 indeterminate type) comes from the
  // kinds of values the client sent: a 400. The type checker refuses most of these before SQL.
  else if (code && (code.startsWith('22') || code === '42804' || code === '42883' || code === '42725' || code === '42P18')) kind = 'value';
  // PGlite refuses a parameter it cannot serialise for the column type before sending it
  else if (!code && /^Invalid input for \w+ type/i.test(message)) kind = 'value';
  return new SqlDriverError(kind, message, code, { cause: error });
}
