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
}

/**
 * What went wrong, as far as the caller needs to know:
 * - `connection`: the database is unreachable/restarting (logged as such; the pool recovers by itself);
 * - `value`: a value did not fit the column type (e.g. `Id eq 'abc'` on an integer key): a 400/404;
 * - `query`: anything else (a 500 with traceId; details only in the log).
 */
export type SqlFailureKind = 'connection' | 'value' | 'query';

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

/** Classify a PostgreSQL/pg/PGlite error by SQLSTATE or errno. */
export function classifyPostgresError(error: unknown): SqlDriverError {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : String(error);
  let kind: SqlFailureKind = 'query';
  if (code && (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')) kind = 'connection';
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
