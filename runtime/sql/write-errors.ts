/**
 * Database refusals of a write (classified once by the drivers: SqlDriverError kind and violation),
 * as registry errors that name the column (never a raw 500):
 *   unique -> SQL_UNIQUE_VIOLATION 409 `A record with this <Col> already exists`
 *   referenced (DELETE of a row others point at) -> SQL_STILL_REFERENCED 409
 *   foreign key -> SQL_FOREIGN_KEY_VIOLATION 422, detail `<Col> refers to a record that does not exist`
 *   not null -> SQL_NOT_NULL_VIOLATION 422, detail `<Col> is required`
 *   check -> SQL_CHECK_VIOLATION 422, detail `<Col> is not an allowed value`
 *   a value for a column the database sets itself -> SQL_READ_ONLY_COLUMN 422, detail `<Col> is set by the database and cannot be written`
 *   value does not fit its column type (too long, out of range, not a number) -> SQL_COLUMN_VALUE_INVALID 400
 *     (on DELETE: a key of the wrong type names no record, SQL_WRITE_NOT_FOUND 404)
 *   a procedure's deliberate error (P0001, SQL Server >= 50000) -> SQL_PROCEDURE_REFUSED 400 with its message
 * Column names are mapped to the exposed name; when the database does not name the column, the
 * longest AllowedColumns name inside the constraint name is used (SQL Server names a foreign key's
 * referenced column: the allowed column ending in it is used). A column the endpoint does not expose,
 * or a constraint named after none of its columns, is never named: SQL_DUPLICATE_RECORD 409 `A record
 * with these values already exists`, or the 422 with a `body` detail (`A column this endpoint does not
 * expose requires a value` and the like).
 * Anything else is rethrown (500 with traceId; the details go to the log only).
 */
import type { SqlEndpoint } from '../contract/model.js';
import { SqlDriverError, type ConstraintViolation } from './drivers/driver.js';
import { WharfError, type ErrorDetail } from '../errors/wharf-error.js';
import { readOnlyMessage } from './read-only-columns.js';

/**
 * The exposed name of the refused column, or null when it is none of the endpoint's columns (a
 * column it does not expose, or a constraint named after none): the answer then names neither the
 * column nor the constraint, which are schema internals the endpoint hides.
 */
function columnOf(endpoint: SqlEndpoint, v: ConstraintViolation): string | null {
  const column = v.column?.toLowerCase();
  if (column !== undefined) {
    // SQL Server names the referenced column of a foreign key (`CustomerId` for `ContactCustomerId`)
    const named = endpoint.columns.find((c) => c.db.toLowerCase() === column)
      ?? (v.rule === 'foreign_key' ? endpoint.columns.find((c) => c.db.toLowerCase().endsWith(column)) : undefined);
    return named?.name ?? null;
  }
  const constraint = (v.constraint ?? '').toLowerCase();
  const guessed = [...endpoint.columns]
    .sort((a, b) => b.db.length - a.db.length)
    .find((c) => constraint.includes(c.db.toLowerCase()));
  return guessed?.name ?? null;
}

type UnnamedRule = Exclude<ConstraintViolation['rule'], 'unique' | 'referenced'>;

/** What a refusal says when the column is not one the endpoint exposes (columnOf null): a detail of `body`. */
const UNNAMED: Readonly<Record<UnnamedRule, string>> = {
  foreign_key: 'The record refers to a record that does not exist',
  not_null: 'A column this endpoint does not expose requires a value',
  check: 'The record is not allowed by a rule of the database',
  read_only: 'A value was given for a column the database sets itself',
};
const UNNAMED_CODE = {
  foreign_key: 'SQL_FOREIGN_KEY_VIOLATION',
  not_null: 'SQL_NOT_NULL_VIOLATION',
  check: 'SQL_CHECK_VIOLATION',
  read_only: 'SQL_READ_ONLY_COLUMN',
} as const satisfies Readonly<Record<UnnamedRule, string>>;

/** How a batch names the refused row: `[2].Code` / `Row 2: ...` in details, ` (row 2)` after a message. */
function rowDetail(field: string, message: string, row: number | undefined): ErrorDetail[] {
  return row === undefined ? [{ field, message }] : [{ field: `[${row}].${field}`, message: `Row ${row}: ${message}` }];
}

/**
 * The registry error for a database refusal of a write, or null when it is a server fault.
 * `row`: the index of the refused row of a batch, when the database names its value.
 */
export function writeFailure(endpoint: SqlEndpoint, error: unknown, deleting: boolean, row?: number): WharfError | null {
  if (!(error instanceof SqlDriverError)) return null;
  if (error.kind === 'raised') return new WharfError('SQL_PROCEDURE_REFUSED', { message: error.message.replace(/^error:\s*/i, '') }, { cause: error });
  if (error.kind === 'value') {
    return deleting ? new WharfError('SQL_WRITE_NOT_FOUND', undefined, { cause: error }) : new WharfError('SQL_COLUMN_VALUE_INVALID', undefined, { cause: error });
  }
  if (error.kind !== 'constraint' || error.violation === null) return null;
  const v = error.violation;
  const suffix = row === undefined ? '' : ` (row ${row})`;
  if (v.rule === 'referenced') return new WharfError('SQL_STILL_REFERENCED', { row: suffix }, { cause: error });
  const col = columnOf(endpoint, v);
  if (col === null) {
    if (v.rule === 'unique') return new WharfError('SQL_DUPLICATE_RECORD', { row: suffix }, { cause: error });
    return new WharfError(UNNAMED_CODE[v.rule], undefined, { details: rowDetail('body', UNNAMED[v.rule], row), cause: error });
  }
  switch (v.rule) {
    case 'unique':
      return new WharfError('SQL_UNIQUE_VIOLATION', { column: col, row: suffix }, { cause: error });
    case 'foreign_key':
      return new WharfError('SQL_FOREIGN_KEY_VIOLATION', undefined, { details: rowDetail(col, `${col} refers to a record that does not exist`, row), cause: error });
    case 'not_null':
      return new WharfError('SQL_NOT_NULL_VIOLATION', undefined, { details: rowDetail(col, `${col} is required`, row), cause: error });
    case 'check':
      return new WharfError('SQL_CHECK_VIOLATION', undefined, { details: rowDetail(col, `${col} is not an allowed value`, row), cause: error });
    case 'read_only':
      return new WharfError('SQL_READ_ONLY_COLUMN', undefined, { details: rowDetail(col, readOnlyMessage(col), row), cause: error });
  }
}
