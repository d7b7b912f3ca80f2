/**
 * The SQL write path, independent of the web framework:
 *   request -> validate (write-body.ts, 400/422 before any SQL) -> plan (Table mode or procedure)
 *   -> compile (dialect) -> execute -> shape (aliases, ResponseTransforms) or map the refusal.
 * Success bodies: `{success:true, message, result, id}`; POST 201 with Location, else 200.
 */
import type { SqlEndpoint } from '../contract/model.js';
import { rowValue, SqlDriverError, type Row } from './drivers/driver.js';
import type { TypedValue } from './plan.js';
import { urlKeyText, validateWrite, type ValidWrite, type WriteInput, type WriteMethod } from './write-body.js';
import { WharfError } from '../errors/wharf-error.js';
import { writeFailure } from './write-errors.js';
import { fitsColumn } from './column-bounds.js';
import { shapeRow } from './written-row.js';
import { isBatchBody } from './batch-body.js';
import { handleSqlBatch, type SqlBatchResponse } from './batch-handler.js';
import { planDelete, planInsert, planProcedure, planUpdate } from './write-plan.js';
import type { SqlWriteDeps } from './write-deps.js';
import type { ColumnValue } from './write-body.js';
import type { BoolExpr, FilterExpr } from './odata/ast.js';
import { evaluate } from './odata/evaluate.js';

export interface SqlWriteRequest extends WriteInput {
  /** URL path of the endpoint without id (`/api/demo/Inventory/Items`), for Location. */
  readonly endpointPath: string;
}

export interface SqlWriteResponse {
  readonly status: 200 | 201;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { success: true; message: string; result: unknown; id: string | number | boolean | null };
}

const MESSAGES: Readonly<Record<WriteMethod, string>> = {
  POST: 'Record created successfully',
  PUT: 'Record updated successfully',
  PATCH: 'Record partially updated successfully',
  DELETE: 'Record deleted successfully',
};

export function writeMethodOf(method: string): WriteMethod | null {
  if (method === 'MERGE') return 'PATCH';
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE' ? method : null;
}

function respond(method: WriteMethod, req: SqlWriteRequest, result: unknown, id: TypedValue['value'] | undefined): SqlWriteResponse {
  const key = id === undefined ? null : id;
  const headers: Record<string, string> = {};
  if (method === 'POST') headers['location'] = key === null ? req.endpointPath : `${req.endpointPath}/${encodeURIComponent(String(key))}`;
  return { status: method === 'POST' ? 201 : 200, headers, body: { success: true, message: MESSAGES[method], result, id: key } };
}

function filterColumns(e: BoolExpr, into: Set<string>): Set<string> {
  const value = (v: unknown): void => {
    const node = v as { kind: string; column?: string; args?: unknown[] };
    if (node.kind === 'member' && node.column !== undefined) into.add(node.column);
    if (node.kind === 'call') node.args?.forEach(value);
  };
  switch (e.kind) {
    case 'logical': filterColumns(e.left, into); filterColumns(e.right, into); break;
    case 'not': filterColumns(e.operand, into); break;
    case 'compare': value(e.left); value(e.right); break;
    case 'in': case 'match': value(e.operand); break;
  }
  return into;
}

/**
 * The written values must lie inside the rule's RowFilter (422 otherwise): an insert always, an
 * update when it sets a column the filter reads (evaluated on the values it sets, so a filter over
 * several columns needs all of them in such an update).
 */
function checkInside(endpoint: SqlEndpoint, rowFilter: FilterExpr, values: readonly ColumnValue[], always: boolean): void {
  const columns = filterColumns(rowFilter, new Set());
  if (!always && !values.some((v) => columns.has(v.column))) return;
  const row: Record<string, unknown> = {};
  for (const v of values) row[endpoint.columns.find((c) => c.db === v.column)?.name ?? v.column] = v.value.value;
  if (evaluate(rowFilter, row) === true) return;
  const field = endpoint.columns.find((c) => columns.has(c.db))?.name ?? '';
  throw new WharfError('SQL_OUTSIDE_ROW_FILTER', undefined, { details: [{ field, message: 'The record is outside the rows this caller may write (Authorization RowFilter)' }] });
}

/**
 * A key of the wrong kind or outside the key column's type (`abc` or 99999999999 on an integer key)
 * names no record: 404 as for a missing one, as a read answers, without SQL the database would
 * refuse (column-bounds.ts). Table mode and procedures alike.
 */
function checkKeyFits(keyColumn: string | null, valid: ValidWrite, deps: SqlWriteDeps): void {
  if (keyColumn !== null && valid.key !== null && !fitsColumn(deps.columnKinds, keyColumn, valid.key)) throw new WharfError('SQL_WRITE_NOT_FOUND');
}

async function tableWrite(endpoint: SqlEndpoint, req: SqlWriteRequest, valid: ValidWrite, deps: SqlWriteDeps): Promise<SqlWriteResponse> {
  const keyColumn = endpoint.primaryKey as string;
  const keyName = endpoint.columns.find((c) => c.db === keyColumn)?.name ?? keyColumn;
  const rowFilter = deps.rowFilter ?? null;
  if (rowFilter !== null && req.method !== 'DELETE') checkInside(endpoint, rowFilter, valid.values, req.method === 'POST');
  if (req.method === 'POST') {
    const q = deps.compiler.compileInsert(planInsert(endpoint, valid));
    const row = shapeRow(endpoint, (await deps.driver.query(q.sql, q.params))[0]);
    return respond('POST', req, row, row?.[keyName] as TypedValue['value'] | undefined);
  }
  checkKeyFits(keyColumn, valid, deps);
  if (req.method === 'DELETE') {
    const plan = planDelete(endpoint, valid);
    const q = deps.compiler.compileDelete({ ...plan, key: { ...plan.key, rowFilter } });
    const rows = await deps.driver.query(q.sql, q.params);
    if (rows.length === 0) throw new WharfError('SQL_WRITE_NOT_FOUND');
    return respond('DELETE', req, null, rowValue(rows[0], keyColumn) as TypedValue['value']);
  }
  const plan = planUpdate(endpoint, req.method, valid, deps.columnKinds);
  if (plan === null) throw new WharfError('SQL_NOTHING_TO_UPDATE');
  const q = deps.compiler.compileUpdate({ ...plan, key: { ...plan.key, rowFilter } });
  const row = shapeRow(endpoint, (await deps.driver.query(q.sql, q.params))[0]);
  if (row === null) throw new WharfError('SQL_WRITE_NOT_FOUND');
  return respond(req.method, req, row, row[keyName] as TypedValue['value']);
}

/** PostgreSQL procedures that turned out to be functions (CALL refused as `wrong_object`, 42809). */
const FUNCTIONS = new WeakMap<SqlEndpoint, boolean>();

/**
 * `@Method` carries the verb (INSERT, UPDATE, PATCH, DELETE): a body value for a column of that name
 * would be a second argument of the same name, which the database refuses (a 500 before). It is a
 * 422 naming the column; the column is read as any other, and Table mode writes it as any other.
 * PostgreSQL tells quoted names apart by case (`"method"` is another parameter), SQL Server does not.
 */
function checkNoVerbColumn(endpoint: SqlEndpoint, valid: ValidWrite, dialect: SqlWriteDeps['compiler']['dialect']): void {
  const clash = (column: string) => (dialect === 'postgres' ? column === 'Method' : column.toLowerCase() === 'method');
  const refused = valid.values.map((v) => v.column).filter(clash);
  // the URL key is passed as a parameter of the key column's name too (planProcedure)
  const key = endpoint.primaryKey;
  if (key !== null && valid.key !== null && clash(key) && !refused.includes(key)) refused.push(key);
  if (refused.length === 0) return;
  throw new WharfError('SQL_VALIDATION_FAILED', undefined, { details: refused.map((column) => {
    const name = endpoint.columns.find((c) => c.db === column)?.name ?? column;
    return { field: name, message: `${name} cannot be written through the procedure: its parameter @Method carries the verb` };
  }) });
}

async function procedureWrite(endpoint: SqlEndpoint, req: SqlWriteRequest, valid: ValidWrite, deps: SqlWriteDeps): Promise<SqlWriteResponse> {
  checkNoVerbColumn(endpoint, valid, deps.compiler.dialect);
  // a POST creates: its key (if any) is the new record's, left to the procedure
  if (req.method !== 'POST') checkKeyFits(endpoint.primaryKey, valid, deps);
  const run = (asFunction: boolean) => {
    const q = deps.compiler.compileProcedure(planProcedure(endpoint, req.method, valid, asFunction));
    return deps.driver.query(q.sql, q.params);
  };
  let rows: Row[];
  const asFunction = FUNCTIONS.get(endpoint) ?? false;
  try {
    rows = await run(asFunction);
  } catch (error) {
    if (deps.compiler.dialect !== 'postgres' || asFunction || !(error instanceof SqlDriverError) || error.kind !== 'wrong_object') throw error;
    FUNCTIONS.set(endpoint, true);
    rows = await run(true);
  }
  const row = shapeRow(endpoint, rows[0]);
  const keyColumn = endpoint.primaryKey;
  const keyName = keyColumn === null ? null : (endpoint.columns.find((c) => c.db === keyColumn)?.name ?? keyColumn);
  const fromResult = keyName !== null && row !== null && row[keyName] !== null && row[keyName] !== undefined ? (row[keyName] as TypedValue['value']) : undefined;
  return respond(req.method, req, row, fromResult ?? valid.key?.value ?? undefined);
}

export async function handleSqlWrite(endpoint: SqlEndpoint, req: SqlWriteRequest, deps: SqlWriteDeps): Promise<SqlWriteResponse | SqlBatchResponse> {
  const keyless = req.method === 'DELETE' && urlKeyText(req.pathId, req.query) === null;
  if (endpoint.writeMode === 'Table' && isBatchBody(req.body) && (req.method === 'POST' || keyless)) {
    // a batch is one statement without the per-row RowFilter checks: refused under a rule rather than unchecked
    if (deps.rowFilter) throw new WharfError('SQL_ROW_FILTER_BATCH');
    try {
      return await handleSqlBatch(endpoint, req.method, req.body, deps);
    } catch (error) {
      throw writeFailure(endpoint, error, req.method === 'DELETE') ?? error;
    }
  }
  // body values are checked against the column kinds in Table mode; a procedure takes its own parameters
  const valid = validateWrite(endpoint, req, endpoint.writeMode === 'Table' ? deps.columnKinds : undefined);
  // the compiler refuses a RowFilter over procedure writes; this keeps it that way at run time
  if (deps.rowFilter && endpoint.writeMode !== 'Table') throw new WharfError('SQL_ROW_FILTER_PROCEDURE');
  try {
    return endpoint.writeMode === 'Table' ? await tableWrite(endpoint, req, valid, deps) : await procedureWrite(endpoint, req, valid, deps);
  } catch (error) {
    const failure = writeFailure(endpoint, error, req.method === 'DELETE');
    if (failure) throw failure;
    throw error;
  }
}
