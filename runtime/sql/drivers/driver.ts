/**
 * The one boundary that touches a database. Each driver executes compiled SQL with typed
 * parameters and returns plain rows (column name -> JS value), normalised the same way on
 * every PostgreSQL-family driver (see type-parsers.ts).
 */
import type { TypedValue } from '../plan.js';

export type Row = Record<string, unknown>;

/**
 * A row's value for `column`: the exact name, else the same name in another case (Babelfish
 * answers `OUTPUT INSERTED.[Id]` as `id`). Exact names come first, so nothing changes where the
 * database keeps the case, as SQL Server and PostgreSQL do.
 */
export function rowValue(row: Row | undefined, column: string): unknown {
  if (!row) return undefined;
  if (column in row) return row[column];
  const lower = column.toLowerCase();
  for (const name of Object.keys(row)) if (name.toLowerCase() === lower) return row[name];
  return undefined;
}

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
 * - `wrong_object`: the object is not of the kind the statement expects (PostgreSQL 42809, a CALL
 *   of a function: the procedure write calls it as a function instead; else a 500 like `query`);
 * - `query`: anything else (a 500 with traceId; details only in the log).
 */
export type SqlFailureKind = 'connection' | 'value' | 'query' | 'timeout' | 'constraint' | 'raised' | 'wrong_object';

/**
 * A constraint the database refused a write for (kind `constraint`): which rule, and the column
 * when the database names it (else null; the write path then guesses from the constraint name).
 * `referenced`: a DELETE/UPDATE of a row other rows still point at. `read_only`: a value for a
 * column the database sets itself (PostgreSQL 428C9 on a GENERATED ALWAYS column; SQL Server 544
 * identity insert, 8102 identity update, 271 computed column).
 */
export interface ConstraintViolation {
  readonly rule: 'unique' | 'foreign_key' | 'referenced' | 'not_null' | 'check' | 'read_only';
  readonly column: string | null;
  readonly constraint: string | null;
  /** The refused value as the database prints it (PostgreSQL `Key (col)=(value)` of one column), when known. */
  readonly value?: string | null;
}

export class SqlDriverError extends Error {
  override readonly name = 'SqlDriverError';
  constructor(
    readonly kind: SqlFailureKind,
    message: string,
    /** Driver/database error code (SQLSTATE, errno name, mssql number) for the log. */
    readonly code: string | undefined,
    options?: { cause?: unknown; violation?: ConstraintViolation },
  ) {
    super(message, options);
    this.violation = options?.violation ?? null;
  }

  /** Set on kind `constraint`. */
  readonly violation: ConstraintViolation | null;
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

/** First column named in a PostgreSQL detail `Key ("Sku")=(x) already exists.` / `Key (a, b)=...`. */
function keyColumn(detail: unknown): string | null {
  if (typeof detail !== 'string') return null;
  const m = /^Key \((.+?)\)=/.exec(detail);
  if (!m) return null;
  const first = (m[1] as string).split(',')[0]!.trim();
  return first.startsWith('"') ? first.slice(1, -1).replace(/""/g, '"') : first;
}

/** The value of a one-column PostgreSQL detail `Key ("Sku")=(x) already exists.`; null for several columns. */
function keyValue(detail: unknown): string | null {
  if (typeof detail !== 'string') return null;
  const m = /^Key \(([^,]+?)\)=\((.*)\) (?:already exists|is not present|is still referenced)/s.exec(detail);
  return m ? (m[2] as string) : null;
}

function postgresViolation(code: string, e: { message?: unknown; detail?: unknown; column?: unknown; constraint?: unknown }): ConstraintViolation | null {
  const constraint = typeof e.constraint === 'string' ? e.constraint : null;
  switch (code) {
    case '23505': return { rule: 'unique', column: keyColumn(e.detail), constraint, value: keyValue(e.detail) };
    case '23503': {
      const referenced = typeof e.detail === 'string' && e.detail.includes('is still referenced');
      return { rule: referenced ? 'referenced' : 'foreign_key', column: keyColumn(e.detail), constraint, value: keyValue(e.detail) };
    }
    case '23502': return { rule: 'not_null', column: typeof e.column === 'string' ? e.column : null, constraint };
    case '23514': return { rule: 'check', column: null, constraint };
    // `cannot insert a non-DEFAULT value into column "X"`, `column "X" can only be updated to DEFAULT`
    case '428C9': return { rule: 'read_only', column: /column "([^"]+)"/.exec(typeof e.message === 'string' ? e.message : '')?.[1] ?? null, constraint: null };
    default: return null;
  }
}

const VALUE_CODES = new Set(['22P02', '22007', '22008', '22003', '22001', '22P05', '22021', '22018', '42804', '42883', '42725', '42P18']);

/** Classify a PostgreSQL/pg/PGlite error by SQLSTATE or errno. */
export function classifyPostgresError(error: unknown): SqlDriverError {
  if (error instanceof CommandTimeoutError) return new SqlDriverError('timeout', error.message, error.code, { cause: error });
  const e = error as { code?: unknown; message?: unknown; detail?: unknown; column?: unknown; constraint?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : String(error);
  let kind: SqlFailureKind = 'query';
  // 57014 query_canceled: statement_timeout fired on the server
  if (code === '57014') kind = 'timeout';
  else if (code && (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')) kind = 'connection';
  else if (!code && /Connection terminated|connect|timeout/i.test(message)) kind = 'connection';
  // Every identifier in our SQL comes from the model, so a data exception caused by a value (22P02
  // bad text representation, 22007/22008 datetime, 22003 out of range, 22001 too long, 22P05/22021
  // untranslatable or invalid character, 22018 bad cast) or a type error (42804 datatype mismatch,
  // 42883 no such operator/function, 42725 ambiguous function, 42P18 indeterminate type) comes from
  // the kinds of values the client sent: a 400. The type checker refuses most of these before SQL.
  // Other data exceptions (e.g. a procedure raising 22023) stay server errors.
  else if (code && VALUE_CODES.has(code)) kind = 'value';
  // PGlite refuses a parameter it cannot serialise for the column type before sending it
  else if (!code && /^Invalid input for \w+ type/i.test(message)) kind = 'value';
  // P0001: RAISE EXCEPTION without an ERRCODE (a procedure's deliberate error)
  else if (code === 'P0001') kind = 'raised';
  // 42809 wrong_object_type: CALL of a function (procedure writes then call it as a function)
  else if (code === '42809') kind = 'wrong_object';
  const violation = code ? postgresViolation(code, e) : null;
  if (violation) return new SqlDriverError('constraint', message, code, { cause: error, violation });
  return new SqlDriverError(kind, message, code, { cause: error });
}
