/**
 * The SQL write path, independent of the web framework:
 *   request -> validate (write-body.ts, 400/422 before any SQL) -> plan (Table mode or procedure)
 *   -> compile (dialect) -> execute -> shape (aliases, ResponseTransforms) or map the refusal.
 * Success bodies: `{success:true, message, result, id}`; POST 201 with Location, else 200.
 */
import type { SqlEndpoint } from '../contract/model.js';
import { applyTransforms } from '../transforms/response-transforms.js';
import type { SqlCompiler } from './compile/compiler.js';
import { rowValue, SqlDriverError, type Row, type SqlDriver } from './drivers/driver.js';
import type { TypedValue } from './plan.js';
import { validateWrite, WriteRequestError, type ValidWrite, type WriteInput, type WriteMethod } from './write-body.js';
import { writeFailure } from './write-errors.js';
import { planDelete, planInsert, planProcedure, planUpdate } from './write-plan.js';

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

/**
 * A database row (db column names) as the client sees it: exposed names, transforms applied.
 * A name the database answered in another case (Babelfish lower-cases OUTPUT columns) still finds
 * its column; the exact name is tried first.
 */
function shapeRow(endpoint: SqlEndpoint, row: Row | undefined): Row | null {
  if (!row) return null;
  const out: Row = {};
  for (const [name, value] of Object.entries(row)) {
    const lower = name.toLowerCase();
    const column = endpoint.columns.find((c) => c.db === name) ?? endpoint.columns.find((c) => c.db.toLowerCase() === lower);
    out[column?.name ?? name] = value;
  }
  return applyTransforms(out, endpoint.responseTransforms);
}

function respond(method: WriteMethod, req: SqlWriteRequest, result: unknown, id: TypedValue['value'] | undefined): SqlWriteResponse {
  const key = id === undefined ? null : id;
  const headers: Record<string, string> = {};
  if (method === 'POST') headers['location'] = key === null ? req.endpointPath : `${req.endpointPath}/${encodeURIComponent(String(key))}`;
  return { status: method === 'POST' ? 201 : 200, headers, body: { success: true, message: MESSAGES[method], result, id: key } };
}

async function tableWrite(endpoint: SqlEndpoint, req: SqlWriteRequest, valid: ValidWrite, deps: SqlWriteDeps): Promise<SqlWriteResponse> {
  const keyColumn = endpoint.primaryKey as string;
  const keyName = endpoint.columns.find((c) => c.db === keyColumn)?.name ?? keyColumn;
  if (req.method === 'POST') {
    const q = deps.compiler.compileInsert(planInsert(endpoint, valid));
    const row = shapeRow(endpoint, (await deps.driver.query(q.sql, q.params))[0]);
    return respond('POST', req, row, row?.[keyName] as TypedValue['value'] | undefined);
  }
  if (req.method === 'DELETE') {
    const q = deps.compiler.compileDelete(planDelete(endpoint, valid));
    const rows = await deps.driver.query(q.sql, q.params);
    if (rows.length === 0) throw new WriteRequestError(404, 'Record not found');
    return respond('DELETE', req, null, rowValue(rows[0], keyColumn) as TypedValue['value']);
  }
  const plan = planUpdate(endpoint, req.method, valid);
  if (plan === null) throw new WriteRequestError(400, 'The request body has no updatable columns');
  const q = deps.compiler.compileUpdate(plan);
  const row = shapeRow(endpoint, (await deps.driver.query(q.sql, q.params))[0]);
  if (row === null) throw new WriteRequestError(404, 'Record not found');
  return respond(req.method, req, row, row[keyName] as TypedValue['value']);
}

/** PostgreSQL procedures that turned out to be functions (CALL answered 42809). */
const FUNCTIONS = new WeakMap<SqlEndpoint, boolean>();

async function procedureWrite(endpoint: SqlEndpoint, req: SqlWriteRequest, valid: ValidWrite, deps: SqlWriteDeps): Promise<SqlWriteResponse> {
  const run = (asFunction: boolean) => {
    const q = deps.compiler.compileProcedure(planProcedure(endpoint, req.method, valid, asFunction));
    return deps.driver.query(q.sql, q.params);
  };
  let rows: Row[];
  const asFunction = FUNCTIONS.get(endpoint) ?? false;
  try {
    rows = await run(asFunction);
  } catch (error) {
    if (deps.compiler.dialect !== 'postgres' || asFunction || !(error instanceof SqlDriverError) || error.code !== '42809') throw error;
    FUNCTIONS.set(endpoint, true);
    rows = await run(true);
  }
  const row = shapeRow(endpoint, rows[0]);
  const keyColumn = endpoint.primaryKey;
  const keyName = keyColumn === null ? null : (endpoint.columns.find((c) => c.db === keyColumn)?.name ?? keyColumn);
  const fromResult = keyName !== null && row !== null && row[keyName] !== null && row[keyName] !== undefined ? (row[keyName] as TypedValue['value']) : undefined;
  return respond(req.method, req, row, fromResult ?? valid.key?.value ?? undefined);
}

export interface SqlWriteDeps {
  readonly driver: SqlDriver;
  readonly compiler: SqlCompiler;
}

export async function handleSqlWrite(endpoint: SqlEndpoint, req: SqlWriteRequest, deps: SqlWriteDeps): Promise<SqlWriteResponse> {
  const valid = validateWrite(endpoint, req);
  try {
    return endpoint.writeMode === 'Table' ? await tableWrite(endpoint, req, valid, deps) : await procedureWrite(endpoint, req, valid, deps);
  } catch (error) {
    const failure = writeFailure(endpoint, error, req.method === 'DELETE');
    if (failure) throw failure;
    throw error;
  }
}
