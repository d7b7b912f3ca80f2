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
export type SqlFailureKind = 'connection' | 'value' | 'query' | 'constraint' | 'raised';

/**
 * A constraint the database refused a write for (kind `constraint`): which rule, and the column
 * when the database names it (else null; the write path then guesses from the constraint name).
 * `referenced`: a DELETE/UPDATE of a row other rows still point at.
 */
export interface ConstraintViolation {
  readonly rule: 'unique' | 'foreign_key' | 'referenced' | 'not_null' | 'check';
  readonly column: string | null;
  readonly constraint: string | null;
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

/** First column named in a PostgreSQL detail `Key ("Sku")=(x) already exists.` / `Key (a, b)=...`. */
function keyColumn(detail: unknown): string | null {
  if (typeof detail !== 'string') return null;
  const m = /^Key \((.+?)\)=/.exec(detail);
  if (!m) return null;
  const first = (m[1] as string).split(',')[0]!.trim();
  return first.startsWith('"') ? first.slice(1, -1).replace(/""/g, '"') : first;
}

function postgresViolation(code: string, e: { detail?: unknown; column?: unknown; constraint?: unknown }): ConstraintViolation | null {
  const constraint = typeof e.constraint === 'string' ? e.constraint : null;
  switch (code) {
    case '23505': return { rule: 'unique', column: keyColumn(e.detail), constraint };
    case '23503': {
      const referenced = typeof e.detail === 'string' && e.detail.includes('is still referenced');
      return { rule: referenced ? 'referenced' : 'foreign_key', column: keyColumn(e.detail), constraint };
    }
    case '23502': return { rule: 'not_null', column: typeof e.column === 'string' ? e.column : null, constraint };
    case '23514': return { rule: 'check', column: null, constraint };
    default: return null;
  }
}

/** Classify a PostgreSQL/pg/PGlite error by SQLSTATE or errno. */
export function classifyPostgresError(error: unknown): SqlDriverError {
  const e = error as { code?: unknown; message?: unknown; detail?: unknown; column?: unknown; constraint?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : String(error);
  let kind: SqlFailureKind = 'query';
  if (code && (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')) kind = 'connection';
  else if (!code && /Connection terminated|connect|timeout/i.test(message)) kind = 'connection';
  // 22P02 invalid_text_representation, 22007/22008 datetime, 22003 out of range, 42883 operator does not exist
  // 22001 string too long, 22P05 untranslatable character (e.g. NUL in text)
  else if (code === '22P02' || code === '22007' || code === '22008' || code === '22003' || code === '42883' || code === '22001' || code === '22P05' || code === '22021') kind = 'value';
  // P0001: RAISE EXCEPTION without an ERRCODE (a procedure's deliberate error)
  else if (code === 'P0001') kind = 'raised';
  const violation = code ? postgresViolation(code, e) : null;
  if (violation) return new SqlDriverError('constraint', message, code, { cause: error, violation });
  return new SqlDriverError(kind, message, code, { cause: error });
}
