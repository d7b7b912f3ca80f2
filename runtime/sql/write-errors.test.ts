/**
 * Database refusals -> client answers, for both database families. PostgreSQL errors are also
 * produced for real in test/sql/write-http.test.ts; the SQL Server ones (not runnable here) are
 * the driver's error objects as tedious reports them (number + message).
 */
import { describe, expect, it } from 'vitest';
import { classifyPostgresError } from './drivers/driver.js';
import { classifyMssqlError } from './drivers/mssql.js';
import { writeFailure } from './write-errors.js';
import type { ErrorCode } from '../errors/registry.js';
import type { ErrorDetail } from '../errors/wharf-error.js';
import { endpoint } from '../../test/sql/fixtures.js';

const W = endpoint('sql:Inventory/Warehouses');
const ms = (number: number, message: string) => classifyMssqlError(Object.assign(new Error(message), { number }));
const pg = (code: string, extra: Record<string, string> = {}) => classifyPostgresError(Object.assign(new Error('x'), { code, ...extra }));

interface Refusal {
  readonly code: ErrorCode;
  readonly status: number;
  readonly message: string;
  readonly details: readonly ErrorDetail[] | undefined;
}

const refusal = (code: ErrorCode, status: number, message: string, details?: readonly ErrorDetail[]): Refusal => ({ code, status, message, details });

const cases: [string, { error: Error; deleting?: boolean; want: Refusal | null }][] = [
  ['pg unique, column from detail', { error: pg('23505', { detail: 'Key ("Code")=(NL-001) already exists.', constraint: 'Warehouses_Code_key' }), want: refusal('SQL_UNIQUE_VIOLATION', 409, 'A record with this Code already exists') }],
  ['pg foreign key, alias named', { error: pg('23503', { detail: 'Key ("ContactCustomerId")=(9) is not present in table "Customers".' }),
    want: refusal('SQL_FOREIGN_KEY_VIOLATION', 422, 'Validation failed', [{ field: 'ContactId', message: 'ContactId refers to a record that does not exist' }]) }],
  ['pg row still referenced', { error: pg('23503', { detail: 'Key ("WarehouseId")=(1) is still referenced from table "Stock".' }), want: refusal('SQL_STILL_REFERENCED', 409, 'The record is still referenced by other records') }],
  ['pg not null', { error: pg('23502', { column: 'WarehouseName' }), want: refusal('SQL_NOT_NULL_VIOLATION', 422, 'Validation failed', [{ field: 'Name', message: 'Name is required' }]) }],
  ['pg check, column from the constraint name', { error: pg('23514', { constraint: 'Warehouses_Capacity_check' }),
    want: refusal('SQL_CHECK_VIOLATION', 422, 'Validation failed', [{ field: 'Capacity', message: 'Capacity is not an allowed value' }]) }],
  ['pg a value for a GENERATED ALWAYS column (428C9), column from the message', { error: classifyPostgresError(Object.assign(new Error('cannot insert a non-DEFAULT value into column "ContactCustomerId"'), { code: '428C9' })),
    want: refusal('SQL_READ_ONLY_COLUMN', 422, 'Validation failed', [{ field: 'ContactId', message: 'ContactId is set by the database and cannot be written' }]) }],
  // a column the endpoint does not expose, or a constraint named after none of its columns: neither is named
  ['pg not null of a column the endpoint does not expose', { error: pg('23502', { column: 'CreatedBy' }),
    want: refusal('SQL_NOT_NULL_VIOLATION', 422, 'Validation failed', [{ field: 'body', message: 'A column this endpoint does not expose requires a value' }]) }],
  ['pg not null of a hidden column whose name ends an exposed one is not taken for it', { error: pg('23502', { column: 'Name' }),
    want: refusal('SQL_NOT_NULL_VIOLATION', 422, 'Validation failed', [{ field: 'body', message: 'A column this endpoint does not expose requires a value' }]) }],
  ['pg check named after no column', { error: pg('23514', { constraint: 'chk_totals_balance' }),
    want: refusal('SQL_CHECK_VIOLATION', 422, 'Validation failed', [{ field: 'body', message: 'The record is not allowed by a rule of the database' }]) }],
  ['pg unique of a hidden column', { error: pg('23505', { detail: 'Key ("ExternalRef")=(A-1) already exists.', constraint: 'Warehouses_ExternalRef_key' }),
    want: refusal('SQL_DUPLICATE_RECORD', 409, 'A record with these values already exists') }],
  ['mssql unique key with a generated constraint name (2627)', {
    error: ms(2627, "Violation of UNIQUE KEY constraint 'UQ__Warehous__A25C5AA7F4D7B1E2'. Cannot insert duplicate key in object 'inventory.Warehouses'. The duplicate key value is (NL-001)."),
    want: refusal('SQL_DUPLICATE_RECORD', 409, 'A record with these values already exists') }],
  ['pg RAISE EXCEPTION', { error: Object.assign(pg('P0001'), {}), want: refusal('SQL_PROCEDURE_REFUSED', 400, 'x') }],
  ['pg value too long', { error: pg('22001'), want: refusal('SQL_COLUMN_VALUE_INVALID', 400, 'A value does not match the type or size of its column') }],
  ['pg bad key on DELETE', { error: pg('22P02'), deleting: true, want: refusal('SQL_WRITE_NOT_FOUND', 404, 'Record not found') }],
  ['pg anything else stays a 500', { error: pg('42P01'), want: null }],
  ['pg CALL of a function (42809) stays a 500 here (only the procedure write retries it)', { error: pg('42809'), want: null }],
  ['mssql unique key (2627), column from the constraint name', {
    error: ms(2627, "Violation of UNIQUE KEY constraint 'UQ_Warehouses_Code'. Cannot insert duplicate key in object 'inventory.Warehouses'. The duplicate key value is (NL-001)."),
    want: refusal('SQL_UNIQUE_VIOLATION', 409, 'A record with this Code already exists') }],
  ['mssql unique index (2601)', {
    error: ms(2601, "Cannot insert duplicate key row in object 'inventory.Warehouses' with unique index 'IX_Warehouses_Code'. The duplicate key value is (NL-001)."),
    want: refusal('SQL_UNIQUE_VIOLATION', 409, 'A record with this Code already exists') }],
  ['mssql foreign key (547)', {
    error: ms(547, 'The INSERT statement conflicted with the FOREIGN KEY constraint "FK__Warehouse__Conta__1". The conflict occurred in database "demo", table "sales.Customers", column \'CustomerId\'.'),
    want: refusal('SQL_FOREIGN_KEY_VIOLATION', 422, 'Validation failed', [{ field: 'ContactId', message: 'ContactId refers to a record that does not exist' }]) }],
  ['mssql check (547)', {
    error: ms(547, 'The INSERT statement conflicted with the CHECK constraint "CK_Warehouses_Capacity". The conflict occurred in database "demo", table "inventory.Warehouses", column \'Capacity\'.'),
    want: refusal('SQL_CHECK_VIOLATION', 422, 'Validation failed', [{ field: 'Capacity', message: 'Capacity is not an allowed value' }]) }],
  ['mssql referenced (547)', {
    error: ms(547, 'The DELETE statement conflicted with the REFERENCE constraint "FK_Stock_Warehouses". The conflict occurred in database "demo", table "inventory.Stock", column \'WarehouseId\'.'),
    deleting: true, want: refusal('SQL_STILL_REFERENCED', 409, 'The record is still referenced by other records') }],
  ['mssql NULL into NOT NULL (515)', {
    error: ms(515, "Cannot insert the value NULL into column 'WarehouseName', table 'demo.inventory.Warehouses'; column does not allow nulls. INSERT fails."),
    want: refusal('SQL_NOT_NULL_VIOLATION', 422, 'Validation failed', [{ field: 'Name', message: 'Name is required' }]) }],
  ['mssql explicit identity value (544): the column is not named', {
    error: ms(544, "Cannot insert explicit value for identity column in table 'Warehouses' when IDENTITY_INSERT is set to OFF."),
    want: refusal('SQL_READ_ONLY_COLUMN', 422, 'Validation failed', [{ field: 'body', message: 'A value was given for a column the database sets itself' }]) }],
  ['mssql identity column updated (8102)', {
    error: ms(8102, "Cannot update identity column 'WarehouseId'."),
    want: refusal('SQL_READ_ONLY_COLUMN', 422, 'Validation failed', [{ field: 'WarehouseId', message: 'WarehouseId is set by the database and cannot be written' }]) }],
  ['mssql computed column written (271)', {
    error: ms(271, 'The column "City" cannot be modified because it is either a computed column or is the result of a UNION operator.'),
    want: refusal('SQL_READ_ONLY_COLUMN', 422, 'Validation failed', [{ field: 'City', message: 'City is set by the database and cannot be written' }]) }],
  ['babelfish a value for a generated column (PostgreSQL text, unmapped number)', {
    error: ms(33557097, 'cannot insert a non-DEFAULT value into column "city"'),
    want: refusal('SQL_READ_ONLY_COLUMN', 422, 'Validation failed', [{ field: 'City', message: 'City is set by the database and cannot be written' }]) }],
  ['mssql THROW 50000', { error: ms(50000, 'Order 12 does not exist'), want: refusal('SQL_PROCEDURE_REFUSED', 400, 'Order 12 does not exist') }],
  ['mssql truncation (2628)', { error: ms(2628, "String or binary data would be truncated in table 'x', column 'City'."), want: refusal('SQL_COLUMN_VALUE_INVALID', 400, 'A value does not match the type or size of its column') }],
  ['mssql anything else stays a 500', { error: ms(208, "Invalid object name 'inventory.Nope'."), want: null }],
  // Babelfish: the same numbers with PostgreSQL's texts, and 33557097 for what it does not map
  ['babelfish NULL into NOT NULL (515), column in double quotes', {
    error: ms(515, 'null value in column "warehousename" of relation "warehouses" violates not-null constraint'),
    want: refusal('SQL_NOT_NULL_VIOLATION', 422, 'Validation failed', [{ field: 'Name', message: 'Name is required' }]) }],
  ['babelfish referenced (547)', {
    error: ms(547, 'update or delete on table "warehouses" violates foreign key constraint "stock_warehouseid_fkey" on table "stock"'),
    deleting: true, want: refusal('SQL_STILL_REFERENCED', 409, 'The record is still referenced by other records') }],
  ['babelfish unmapped conversion error (33557097) is a value error, not a THROW', {
    error: ms(33557097, 'invalid input syntax for type integer: "1; DROP TABLE x"'), want: refusal('SQL_COLUMN_VALUE_INVALID', 400, 'A value does not match the type or size of its column') }],
  ['babelfish unmapped conversion error on DELETE: no such record', {
    error: ms(33557097, 'invalid input syntax for type integer: "1 OR 1=1"'), deleting: true, want: refusal('SQL_WRITE_NOT_FOUND', 404, 'Record not found') }],
  ['babelfish anything else unmapped stays a 500 (its text never reaches the client)', { error: ms(33557097, 'syntax error at or near "ALTER"'), want: null }],
];

describe('writeFailure', () => {
  it.each(cases)('%s', (_name, { error, deleting, want }) => {
    const got = writeFailure(W, error, deleting ?? false);
    if (want === null) expect(got).toBeNull();
    else expect({ code: got?.code, status: got?.status, message: got?.message, details: got?.details }).toEqual(want);
  });
});

describe('classifyPostgresError', () => {
  it('42809 (CALL of a function) is wrong_object, the kind the procedure write retries on', () => {
    expect(pg('42809').kind).toBe('wrong_object');
  });
});
