/**
 * SQL Server through an `mssql` ConnectionPool (untested here: no SQL Server on this machine;
 * integration tests run when MSSQL_URL is set). Parameters are named p1..pN with explicit types.
 * A failed connect is not cached: the next query tries again, so the driver recovers by itself
 * when the server comes back; the pool replaces broken connections after that.
 */
import sql from 'mssql';
import type { TypedValue } from '../plan.js';
import { SqlDriverError, type ConstraintViolation, type Row, type SqlDriver } from './driver.js';
import { parseMssqlConnectionString } from '../../contract/connection-string.js';
import { mssqlSendable, mssqlTypeOf, mssqlValueOf } from './mssql-types.js';
import { parseInt8 } from './type-parsers.js';

export interface MssqlDriverOptions {
  readonly connectionString: string;
  /** Pool limits (settings `sql_pooling`). */
  readonly pool?: { readonly min?: number; readonly max?: number; readonly idleTimeoutMillis?: number };
  /** Command timeout in ms (default 30 000): mssql's requestTimeout cancels the request. */
  readonly requestTimeoutMs?: number;
  /** Opening a connection, in ms (default 5 000). */
  readonly connectionTimeoutMs?: number;
  readonly onConnectionError?: (error: Error) => void;
}

/** SQL Server error numbers that mean "value does not fit the type" (conversion failures). */
const VALUE_ERRORS = new Set([245, 8114, 8115, 241, 242, 295, 8169, 220, 232, 8152, 2628]);

/** The column a message names (SQL Server `column 'Sku'`, Babelfish `column "sku"`), else null. */
function namedColumn(message: string): string | null {
  return /column (?:'([^']+)'|"([^"]+)")/.exec(message)?.slice(1).find((x) => x !== undefined) ?? null;
}

/**
 * Babelfish's number for a PostgreSQL error it has no SQL Server number for (pltsql_error_not_mapped).
 * It lies in the range of THROW's user numbers but is never a procedure's own error: it is a 500,
 * or a 400 when its (PostgreSQL) text says a value did not convert, as SQL Server's 245/8114 are.
 */
const BABELFISH_NOT_MAPPED = 33557097;
const BABELFISH_READ_ONLY_TEXT = /^cannot insert a non-DEFAULT value into column|can only be updated to DEFAULT/i;
const BABELFISH_VALUE_TEXT = /^(invalid input syntax for type|value too long for type|invalid input value for|[a-z ]+ out of range)/i;

function constraintName(message: string): string | null {
  return /(?:constraint|index) ["']([^"']+)["']/.exec(message)?.[1] ?? null;
}

/**
 * 2627/2601 unique, 547 foreign key / check / referenced, 515 NULL into a NOT NULL column; 544 (an
 * explicit identity value), 8102 (an identity column updated) and 271 (a computed column written):
 * a value for a column the database sets itself.
 */
function mssqlViolation(n: number, message: string): ConstraintViolation | null {
  const constraint = constraintName(message);
  if (n === 2627 || n === 2601) return { rule: 'unique', column: null, constraint };
  if (n === 515) return { rule: 'not_null', column: namedColumn(message), constraint: null };
  if (n === 544 || n === 8102 || n === 271) return { rule: 'read_only', column: namedColumn(message), constraint: null };
  if (n === 547) {
    // SQL Server `... REFERENCE constraint ...`; Babelfish `update or delete on table ... violates foreign key constraint`
    const rule = /REFERENCE constraint|^update or delete on table/i.test(message) ? 'referenced' : /CHECK constraint/i.test(message) ? 'check' : 'foreign_key';
    return { rule, column: namedColumn(message), constraint };
  }
  return null;
}

export function classifyMssqlError(error: unknown): SqlDriverError {
  if (error instanceof SqlDriverError) return error;
  const e = error as { code?: unknown; number?: unknown; message?: unknown; originalError?: { code?: unknown } };
  const message = typeof e.message === 'string' ? e.message : String(error);
  const code = typeof e.code === 'string' ? e.code : typeof e.number === 'number' ? String(e.number) : undefined;
  // `Timeout: Request failed to complete in N ms`; `Failed to cancel request in N ms` when the server
  // did not acknowledge the cancel either (Babelfish inside a sleep): tedious then drops the connection
  if (e.code === 'ETIMEOUT' && ((/timeout/i.test(message) && !/connect/i.test(message)) || /^Failed to cancel request/.test(message))) {
    return new SqlDriverError('timeout', message, code, { cause: error });
  }
  if (['ESOCKET', 'ELOGIN', 'ETIMEOUT', 'ECONNCLOSED', 'ENOTOPEN', 'ECONNREFUSED'].includes(String(e.code))) {
    return new SqlDriverError('connection', message, code, { cause: error });
  }
  if (typeof e.number === 'number' && VALUE_ERRORS.has(e.number)) return new SqlDriverError('value', message, code, { cause: error });
  // tedious's own check of a parameter against its type (1e300 for an int column, e.g. from a JWT
  // claim in a RowFilter): the value does not fit, as SQL Server's 8115 says (PostgreSQL: 22003)
  if (e.code === 'EPARAM') return new SqlDriverError('value', message, code, { cause: error });
  // PostgreSQL's 428C9 text under Babelfish's unmapped number: a value for a generated column
  if (e.number === BABELFISH_NOT_MAPPED && BABELFISH_READ_ONLY_TEXT.test(message)) {
    return new SqlDriverError('constraint', message, code, { cause: error, violation: { rule: 'read_only', column: namedColumn(message), constraint: null } });
  }
  if (e.number === BABELFISH_NOT_MAPPED) return new SqlDriverError(BABELFISH_VALUE_TEXT.test(message) ? 'value' : 'query', message, code, { cause: error });
  if (typeof e.number === 'number' && e.number >= 50000) return new SqlDriverError('raised', message, code, { cause: error });
  const violation = typeof e.number === 'number' ? mssqlViolation(e.number, message) : null;
  if (violation) return new SqlDriverError('constraint', message, code, { cause: error, violation });
  return new SqlDriverError('query', message, code, { cause: error });
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * `date` and `time` columns as the PostgreSQL drivers render them (`YYYY-MM-DD`, `HH:MM:SS[.fff]`):
 * tedious answers both as a JS Date (midnight UTC; 1970-01-01 plus the time), which JSON would
 * print as a full timestamp. `bigint` as they do too: a number when it fits exactly, else its
 * decimal text (tedious answers every bigint as text; a `$apply` sum is one). Rows are changed in
 * place; only results with such columns are walked.
 */
function plainValues(rows: sql.IRecordSet<Row>): Row[] {
  const columns = Object.values(rows.columns ?? {});
  const dates = columns.filter((c) => c.type === sql.Date).map((c) => c.name);
  const times = columns.filter((c) => c.type === sql.Time).map((c) => c.name);
  const bigints = columns.filter((c) => c.type === sql.BigInt).map((c) => c.name);
  if (dates.length === 0 && times.length === 0 && bigints.length === 0) return rows;
  for (const row of rows) {
    for (const name of bigints) {
      const v = row[name];
      if (typeof v === 'string') row[name] = parseInt8(v);
    }
    for (const name of dates) {
      const v = row[name];
      if (v instanceof Date) row[name] = v.toISOString().slice(0, 10);
    }
    for (const name of times) {
      const v = row[name];
      if (v instanceof Date) {
        const ms = v.getUTCMilliseconds();
        row[name] = `${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`;
      }
    }
  }
  return rows;
}

export function createMssqlDriver(options: MssqlDriverOptions): SqlDriver {
  // ADO.NET or URL form (connection-string.ts); mssql's own parser reads neither URLs nor bad values
  const config = parseMssqlConnectionString(options.connectionString);
  const pool = new sql.ConnectionPool({
    ...config,
    requestTimeout: options.requestTimeoutMs ?? config.requestTimeout ?? 30_000,
    connectionTimeout: options.connectionTimeoutMs ?? config.connectionTimeout ?? 5_000,
    pool: { min: 0, max: 10, idleTimeoutMillis: 30_000, ...config.pool, ...options.pool },
  });
  pool.on('error', (error: Error) => options.onConnectionError?.(error));
  let connecting: Promise<sql.ConnectionPool> | null = null;
  const connected = (): Promise<sql.ConnectionPool> => {
    if (pool.connected) return Promise.resolve(pool);
    connecting ??= pool.connect().catch((error: unknown) => {
      connecting = null;
      throw error;
    });
    return connecting;
  };
  return {
    provider: 'mssql',
    async query(text: string, params: readonly TypedValue[]): Promise<Row[]> {
      try {
        const request = (await connected()).request();
        params.forEach((p, i) => {
          const type = mssqlTypeOf(p);
          if (!mssqlSendable(p, type)) throw new SqlDriverError('value', `Parameter p${i + 1} is out of range for ${type.type === sql.Decimal ? 'decimal' : 'its type'}.`, 'EPARAM');
          request.input(`p${i + 1}`, type, mssqlValueOf(p));
        });
        const result = await request.query<Row>(text);
        return result.recordset ? plainValues(result.recordset) : [];
      } catch (error) {
        throw classifyMssqlError(error);
      }
    },
    async close(): Promise<void> {
      await pool.close();
    },
    poolStats: () => ({ total: pool.size, idle: pool.available, waiting: pool.pending }),
  };
}
