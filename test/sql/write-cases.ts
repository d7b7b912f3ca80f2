/**
 * The SQL write cases, in order (identities follow from the seed: warehouses 1..3 exist), shared
 * by the in-process HTTP test (write-http.test.ts) and the black-box suite (black-box.test.ts).
 * Table mode: Inventory/Warehouses; stored procedure: Sales/Orders. `{env}` in a header is the
 * environment; `$A`.. are ids remembered from earlier answers (subst()).
 */
import type { ErrorCode } from '../../runtime/errors/registry.js';

export interface WriteGiven {
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'MERGE' | 'DELETE' | 'GET';
  readonly path: string;
  readonly contentType?: string | null;
  /** An object is sent as JSON; a string as it is. */
  readonly payload?: unknown;
  /** Remember the answer's `id` as this variable (`$A`): later cases use it in paths and bodies. */
  readonly save?: string;
}
export interface WriteWant {
  readonly status: number;
  /** The registry code of a refusal, as the request's log line names it (write-http.test.ts). */
  readonly code?: ErrorCode;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  /** The Warehouses table must be exactly as before the request. */
  readonly unchanged?: boolean;
}

export const W = 'Inventory/Warehouses';
const NL4 = { WarehouseId: '$A', Code: 'NL-002', Name: 'Venlo', City: 'Venlo', Capacity: 300, ContactId: null, IsActive: true, Notes: '***' };

export const WRITE_CASES: Array<[string, { given: WriteGiven; want: WriteWant }]> = [
  ['POST creates, 201 + Location, row re-selected with aliases and Mask', {
    given: { method: 'POST', path: W, payload: { Code: 'NL-002', Name: 'Venlo', City: 'Venlo', Capacity: 300, Notes: 'secret' }, save: '$A' },
    want: { status: 201, headers: { location: `/api/{env}/${W}/$A` }, body: { success: true, message: 'Record created successfully', result: NL4, id: '$A' } },
  }],
  ['the row is there', { given: { method: 'GET', path: `${W}/$A` }, want: { status: 200, body: NL4 } }],
  ['POST: property names are case-insensitive, db names are accepted too', {
    given: { method: 'POST', path: W, payload: { code: 'DE-002', WAREHOUSENAME: 'Berlin', contactid: 3 }, save: '$B' },
    want: { status: 201, headers: { location: `/api/{env}/${W}/$B` }, body: { success: true, message: 'Record created successfully',
      result: { WarehouseId: '$B', Code: 'DE-002', Name: 'Berlin', City: null, Capacity: null, ContactId: 3, IsActive: true, Notes: '***' }, id: '$B' } },
  }],
  ['POST: every validation failure listed together, nothing written', {
    given: { method: 'POST', path: W, payload: { Code: 'nl1', Name: '  ', Colour: 'red', City: 'X' } },
    want: { status: 422, code: 'SQL_VALIDATION_FAILED', unchanged: true, body: { success: false, error: 'Validation failed', details: [
      { field: 'Code', message: 'Code must be a country code and three digits, like NL-001' },
      { field: 'Colour', message: 'Colour is not an allowed property' },
      { field: 'Name', message: 'Name is required' },
    ] } },
  }],
  // PostgreSQL cannot store U+0000 in text (a 400 after the SQL), SQL Server stores it: refused alike before any SQL
  ['POST: a string with the NUL character (U+0000), 422 naming the column on every database', {
    given: { method: 'POST', path: W, payload: { Code: 'FR-001', Name: 'Pa\u0000ris', Notes: '\u0000' } },
    want: { status: 422, code: 'SQL_VALIDATION_FAILED', unchanged: true, body: { success: false, error: 'Validation failed', details: [
      { field: 'Name', message: 'Name must not contain the NUL character (U+0000)' },
      { field: 'Notes', message: 'Notes must not contain the NUL character (U+0000)' },
    ] } },
  }],
  ['POST: required column missing', {
    given: { method: 'POST', path: W, payload: { Code: 'FR-001' } },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'Name', message: 'Name is required' }] } },
  }],
  ['POST: unique violation names the column', {
    given: { method: 'POST', path: W, payload: { Code: 'NL-001', Name: 'Duplicate' } },
    want: { status: 409, code: 'SQL_UNIQUE_VIOLATION', unchanged: true, body: { success: false, error: 'A record with this Code already exists' } },
  }],
  ['POST: foreign key violation names the column', {
    given: { method: 'POST', path: W, payload: { Code: 'FR-001', Name: 'Paris', ContactId: 999999 } },
    want: { status: 422, code: 'SQL_FOREIGN_KEY_VIOLATION', unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'ContactId', message: 'ContactId refers to a record that does not exist' }] } },
  }],
  ['POST: check constraint names the column', {
    given: { method: 'POST', path: W, payload: { Code: 'FR-001', Name: 'Paris', Capacity: -1 } },
    want: { status: 422, code: 'SQL_CHECK_VIOLATION', unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'Capacity', message: 'Capacity is not an allowed value' }] } },
  }],
  ['POST: NOT NULL column sent as null', {
    given: { method: 'POST', path: W, payload: { Code: 'FR-001', Name: 'Paris', IsActive: null } },
    want: { status: 422, code: 'SQL_NOT_NULL_VIOLATION', unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'IsActive', message: 'IsActive is required' }] } },
  }],
  ['PUT replaces the record (left-out columns become NULL)', {
    given: { method: 'PUT', path: `${W}/$A`, payload: { WarehouseId: '$A', Code: 'NL-002', Name: 'Venlo West', IsActive: false } },
    want: { status: 200, body: { success: true, message: 'Record updated successfully',
      result: { WarehouseId: '$A', Code: 'NL-002', Name: 'Venlo West', City: null, Capacity: null, ContactId: null, IsActive: false, Notes: '***' }, id: '$A' } },
  }],
  ['PUT: body key disagrees with the path key', {
    given: { method: 'PUT', path: `${W}/$A`, payload: { WarehouseId: '$B', Code: 'NL-002', Name: 'X', IsActive: true } },
    want: { status: 400, code: 'SQL_KEY_MISMATCH', unchanged: true, body: { success: false, error: 'The WarehouseId in the body does not match the key in the URL' } },
  }],
  ['PUT: absent record', {
    given: { method: 'PUT', path: `${W}/999`, payload: { Code: 'NL-009', Name: 'X', IsActive: true } },
    want: { status: 404, code: 'SQL_WRITE_NOT_FOUND', unchanged: true, body: { success: false, error: 'Record not found' } },
  }],
  ['PATCH changes only the given columns', {
    given: { method: 'PATCH', path: `${W}/$A`, payload: { City: 'Venlo', Capacity: 450 } },
    want: { status: 200, body: { success: true, message: 'Record partially updated successfully',
      result: { WarehouseId: '$A', Code: 'NL-002', Name: 'Venlo West', City: 'Venlo', Capacity: 450, ContactId: null, IsActive: false, Notes: '***' }, id: '$A' } },
  }],
  ['MERGE is PATCH', {
    given: { method: 'MERGE', path: `${W}/$A`, payload: { IsActive: true } },
    want: { status: 200, body: { success: true, message: 'Record partially updated successfully',
      result: { WarehouseId: '$A', Code: 'NL-002', Name: 'Venlo West', City: 'Venlo', Capacity: 450, ContactId: null, IsActive: true, Notes: '***' }, id: '$A' } },
  }],
  ['PATCH: only the key is nothing to update', {
    given: { method: 'PATCH', path: `${W}/$A`, payload: { WarehouseId: '$A' } },
    want: { status: 400, code: 'SQL_NOTHING_TO_UPDATE', unchanged: true, body: { success: false, error: 'The request body has no updatable columns' } },
  }],
  ['PATCH: a required column may not be blanked', {
    given: { method: 'PATCH', path: `${W}/$A`, payload: { Name: '' } },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'Name', message: 'Name is required' }] } },
  }],
  ['PATCH without any key', {
    given: { method: 'PATCH', path: W, payload: { City: 'X' } },
    want: { status: 400, code: 'SQL_KEY_REQUIRED', unchanged: true, body: { success: false, error: 'ID field is required for this operation' } },
  }],
  ['empty body', { given: { method: 'POST', path: W, payload: {} }, want: { status: 400, code: 'SQL_BODY_EMPTY', unchanged: true, body: { success: false, error: 'Request body cannot be empty' } } }],
  ['no body at all', { given: { method: 'POST', path: W, contentType: null }, want: { status: 400, unchanged: true, body: { success: false, error: 'Request body cannot be empty' } } }],
  // an array is a batch on a Table-mode endpoint (batch-http.test.ts); a procedure endpoint takes one object
  ['body is not an object', { given: { method: 'POST', path: 'Sales/Orders', payload: '[1,2]' }, want: { status: 400, unchanged: true, body: { success: false, error: 'Request body must be a JSON object' } } }],
  ['body is a JSON string', { given: { method: 'POST', path: W, payload: '"Code"' }, want: { status: 400, code: 'SQL_BODY_NOT_OBJECT', unchanged: true, body: { success: false, error: 'Request body must be a JSON object' } } }],
  ['not JSON: 415', {
    given: { method: 'POST', path: W, contentType: 'text/plain', payload: 'Code=NL-003' },
    want: { status: 415, unchanged: true, body: { success: false, error: "Content-Type 'text/plain' is not supported." } },
  }],
  ['malformed JSON: 400 with the position', {
    given: { method: 'POST', path: W, payload: '{"Code": "NL-003",}' },
    want: { status: 400, unchanged: true, body: { success: false, error: "Invalid JSON body: Expected double-quoted property name at line 1, column 19." } },
  }],
  ['hostile: __proto__ key', {
    given: { method: 'POST', path: W, payload: '{"Code":"NL-003","Name":"x","__proto__":{"admin":true}}' },
    want: { status: 400, unchanged: true, body: { success: false, error: "Invalid JSON body: the key '__proto__' is not allowed." } },
  }],
  ['hostile: constructor key is just not an allowed property', {
    given: { method: 'POST', path: W, payload: { Code: 'NL-003', Name: 'x', constructor: 'y' } },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'constructor', message: 'constructor is not an allowed property' }] } },
  }],
  ['hostile: 10,000-deep nesting', {
    given: { method: 'POST', path: W, payload: `{"Code":"NL-003","Name":"x","Notes":${'['.repeat(10_000)}${']'.repeat(10_000)}}` },
    // refused by the body parser before anything recurses (runtime/api/json-body.ts, 64 levels)
    want: { status: 400, unchanged: true, body: { success: false, error: 'Invalid JSON body: JSON is nested deeper than 64 levels.' } },
  }],
  ['hostile: a string longer than the column', {
    given: { method: 'POST', path: W, payload: { Code: 'NL-003', Name: 'x', City: 'x'.repeat(100_000) } },
    want: { status: 400, code: 'SQL_COLUMN_VALUE_INVALID', unchanged: true, body: { success: false, error: 'A value does not match the type or size of its column' } },
  }],
  ['hostile: a body over the server limit (10 MiB)', {
    given: { method: 'POST', path: W, payload: `{"Code":"NL-003","Name":"x","Notes":"${'x'.repeat(10 * 1024 * 1024)}"}` },
    want: { status: 413, unchanged: true, body: { success: false, error: 'Request body is too large (limit 10485760 bytes).' } },
  }],
  ['hostile: a number out of range for the column', {
    given: { method: 'POST', path: W, payload: { Code: 'NL-003', Name: 'x', Capacity: 99999999999 } },
    want: { status: 400, unchanged: true, body: { success: false, error: 'A value does not match the type or size of its column' } },
  }],
  ['hostile: a number beyond exact integers', {
    given: { method: 'POST', path: W, payload: '{"Code":"NL-003","Name":"x","Capacity":123456789012345678901234567890}' },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'Capacity', message: 'Capacity is a number outside the supported range' }] } },
  }],
  ['hostile: a string where a number belongs: 422 naming the column, before any SQL', {
    given: { method: 'POST', path: W, payload: { Code: 'NL-003', Name: 'x', Capacity: '1; DROP TABLE x' } },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'Capacity', message: 'Capacity must be a number' }] } },
  }],
  ['a word where a number belongs ("Capacity": "lots")', {
    given: { method: 'POST', path: W, payload: { Code: 'NL-003', Name: 'x', Capacity: 'lots' } },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'Capacity', message: 'Capacity must be a number' }] } },
  }],
  ['a number, an array, an object for a patterned text column; every wrong type listed, nothing stored', {
    given: { method: 'POST', path: W, payload: { Code: 12, Name: ['NL-001'], City: { a: 1 }, IsActive: 'yes' } },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [
      { field: 'Code', message: 'Code must be a string' },
      { field: 'Name', message: 'Name must be a string' },
      { field: 'City', message: 'City must be a string' },
      { field: 'IsActive', message: 'IsActive must be true or false' },
    ] } },
  }],
  ['PATCH: a list where a patterned code belongs', {
    given: { method: 'PATCH', path: `${W}/$A`, payload: { Code: ['NL-001'] } },
    want: { status: 422, unchanged: true, body: { success: false, error: 'Validation failed', details: [{ field: 'Code', message: 'Code must be a string' }] } },
  }],
  ['a decimal number as text is a number', {
    given: { method: 'PATCH', path: `${W}/$A`, payload: { Capacity: '450' } },
    want: { status: 200, body: { success: true, message: 'Record partially updated successfully',
      result: { WarehouseId: '$A', Code: 'NL-002', Name: 'Venlo West', City: 'Venlo', Capacity: 450, ContactId: null, IsActive: true, Notes: '***' }, id: '$A' } },
  }],
  ['hostile: SQL fragments and unicode are stored as plain text', {
    given: { method: 'POST', path: W, payload: { Code: 'NL-003', Name: "x'); DROP TABLE inventory.\"Warehouses\"; --", City: 'Zürich 🚢 \u202e' }, save: '$C' },
    want: { status: 201, headers: { location: `/api/{env}/${W}/$C` }, body: { success: true, message: 'Record created successfully',
      result: { WarehouseId: '$C', Code: 'NL-003', Name: "x'); DROP TABLE inventory.\"Warehouses\"; --", City: 'Zürich 🚢 \u202e', Capacity: null, ContactId: null, IsActive: true, Notes: '***' }, id: '$C' } },
  }],
  ['hostile: a key that is a SQL fragment', {
    given: { method: 'DELETE', path: `${W}/1%20OR%201%3D1` },
    want: { status: 404, code: 'SQL_WRITE_NOT_FOUND', unchanged: true, body: { success: false, error: 'Record not found' } },
  }],
  ['DELETE by path key', {
    given: { method: 'DELETE', path: `${W}/$C` },
    want: { status: 200, body: { success: true, message: 'Record deleted successfully', result: null, id: '$C' } },
  }],
  ['DELETE by ?id=', {
    given: { method: 'DELETE', path: `${W}?id=$B` },
    want: { status: 200, body: { success: true, message: 'Record deleted successfully', result: null, id: '$B' } },
  }],
  ['DELETE: absent record', { given: { method: 'DELETE', path: `${W}/$C` }, want: { status: 404, code: 'SQL_WRITE_NOT_FOUND', unchanged: true, body: { success: false, error: 'Record not found' } } }],
  ['DELETE without a key', { given: { method: 'DELETE', path: W }, want: { status: 400, code: 'SQL_KEY_REQUIRED', unchanged: true, body: { success: false, error: 'ID field is required for this operation' } } }],
  ['method not in AllowedMethods: 405 with Allow', {
    given: { method: 'POST', path: 'Inventory/Products', payload: { Sku: 'x' } },
    want: { status: 405, headers: { allow: 'GET, HEAD, QUERY, OPTIONS' }, body: { success: false, error: "Method 'POST' is not allowed for this endpoint." } },
  }],
  // stored procedure sales."SaveOrder" (Sales/Orders): aliases translated (Total -> TotalAmount)
  ['procedure: POST -> INSERT, the first result row is the result', {
    given: { method: 'POST', path: 'Sales/Orders', payload: { CustomerId: 5, OrderDate: '2025-02-03', Status: 'New', Total: 12.5 }, save: '$O' },
    want: { status: 201, headers: { location: '/api/{env}/Sales/Orders/$O' }, body: { success: true, message: 'Record created successfully', result: { OrderId: '$O' }, id: '$O' } },
  }],
  ['procedure: the alias reached the database column', {
    given: { method: 'GET', path: 'Sales/Orders/$O' },
    want: { status: 200, body: { OrderId: '$O', CustomerId: 5, OrderDate: '2025-02-03', OrderStatus: 'New', Total: 12.5 } },
  }],
  ['procedure: PATCH -> PATCH with the path key', {
    given: { method: 'PATCH', path: 'Sales/Orders/$O', payload: { Status: 'Paid' } },
    want: { status: 200, body: { success: true, message: 'Record partially updated successfully', result: { OrderId: '$O' }, id: '$O' } },
  }],
  ['procedure: PUT -> UPDATE', {
    given: { method: 'PUT', path: 'Sales/Orders/$O', payload: { OrderId: '$O', CustomerId: 6, OrderDate: '2025-02-04', Status: 'Shipped', Total: 20 } },
    want: { status: 200, body: { success: true, message: 'Record updated successfully', result: { OrderId: '$O' }, id: '$O' } },
  }],
  ['procedure: a deliberate error (RAISE EXCEPTION, P0001) is a 400 with its message', {
    given: { method: 'PATCH', path: 'Sales/Orders/999999', payload: { Status: 'Paid' } },
    want: { status: 400, code: 'SQL_PROCEDURE_REFUSED', body: { success: false, error: 'Order 999999 does not exist' } },
  }],
  ['procedure: validation runs first', {
    given: { method: 'POST', path: 'Sales/Orders', payload: { Colour: 'red' } },
    want: { status: 422, body: { success: false, error: 'Validation failed', details: [{ field: 'Colour', message: 'Colour is not an allowed property' }] } },
  }],
  ['procedure: DELETE passes the key', {
    given: { method: 'DELETE', path: 'Sales/Orders/$O' },
    want: { status: 200, body: { success: true, message: 'Record deleted successfully', result: { OrderId: '$O' }, id: '$O' } },
  }],
];

/** `$X` variables replaced: a whole string `'$X'` by the number, inside a string by its text. */
export function subst<T>(value: T, vars: ReadonlyMap<string, number>): T {
  if (value === undefined) return value;
  let text = JSON.stringify(value);
  for (const [name, id] of vars) text = text.replaceAll(`"${name}"`, String(id)).replaceAll(name, String(id));
  return JSON.parse(text) as T;
}
