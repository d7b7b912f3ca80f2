/**
 * Database refusals of a write, as client answers that name the column (never a raw 500):
 *   unique -> 409 `A record with this <Col> already exists`
 *   referenced (DELETE of a row others point at) -> 409 `The record is still referenced by other records`
 *   foreign key -> 422 `<Col> refers to a record that does not exist`
 *   not null -> 422 `<Col> is required`
 *   check -> 422 `<Col> is not an allowed value`
 *   value does not fit its column type (too long, out of range, not a number) -> 400
 *   a procedure's deliberate error (P0001, SQL Server >= 50000) -> 400 with its message
 * Column names are mapped to the exposed name; when the database does not name the column, the
 * longest AllowedColumns name inside the constraint name is used, else the constraint itself
 * (SQL Server names a foreign key's referenced column: the allowed column ending in it is used).
 * Anything else is rethrown (500 with traceId; the details go to the log only).
 */
import type { SqlEndpoint } from '../contract/model.js';
import { SqlDriverError, type ConstraintViolation } from './drivers/driver.js';
import { WriteRequestError } from './write-body.js';

function columnOf(endpoint: SqlEndpoint, v: ConstraintViolation): string {
  const column = v.column?.toLowerCase();
  // SQL Server names the referenced column of a foreign key (`CustomerId` for `ContactCustomerId`)
  const named = column === undefined ? undefined
    : (endpoint.columns.find((c) => c.db.toLowerCase() === column) ?? endpoint.columns.find((c) => c.db.toLowerCase().endsWith(column)));
  if (named) return named.name;
  const constraint = (v.constraint ?? '').toLowerCase();
  const guessed = [...endpoint.columns]
    .sort((a, b) => b.db.length - a.db.length)
    .find((c) => constraint.includes(c.db.toLowerCase()));
  return guessed?.name ?? v.column ?? v.constraint ?? 'value';
}

export function writeFailure(endpoint: SqlEndpoint, error: unknown, deleting: boolean): WriteRequestError | null {
  if (!(error instanceof SqlDriverError)) return null;
  if (error.kind === 'raised') return new WriteRequestError(400, error.message.replace(/^error:\s*/i, ''));
  if (error.kind === 'value') {
    return deleting ? new WriteRequestError(404, 'Record not found') : new WriteRequestError(400, 'A value does not match the type or size of its column');
  }
  if (error.kind !== 'constraint' || error.violation === null) return null;
  const v = error.violation;
  const col = columnOf(endpoint, v);
  switch (v.rule) {
    case 'unique':
      return new WriteRequestError(409, `A record with this ${col} already exists`);
    case 'referenced':
      return new WriteRequestError(409, 'The record is still referenced by other records');
    case 'foreign_key':
      return new WriteRequestError(422, 'Validation failed', [{ field: col, message: `${col} refers to a record that does not exist` }]);
    case 'not_null':
      return new WriteRequestError(422, 'Validation failed', [{ field: col, message: `${col} is required` }]);
    case 'check':
      return new WriteRequestError(422, 'Validation failed', [{ field: col, message: `${col} is not an allowed value` }]);
  }
}
