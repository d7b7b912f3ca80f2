/**
 * Batch writes on a Table-mode endpoint (a JSON array body), all or nothing:
 *   POST   [ {row}, ... ]  -> 201 `{success, message, count, result: [rows in order], id: [keys]}`
 *   DELETE [ key, ... ]    -> 200 `{success, message, count, result: null, id: [keys]}`; 404 and
 *                             nothing removed when one of the keys has no record.
 * validate (batch-body.ts, 400/413/422 before any SQL) -> plan (batch-plan.ts) -> one statement
 * -> shape each row like a single write (aliases, ResponseTransforms).
 * Rows come back in the order of the body: RETURNING / OUTPUT INSERTED of a plain multi-row
 * VALUES list yields them in that order on PostgreSQL, PGlite and SQL Server.
 */
import type { SqlEndpoint } from '../contract/model.js';
import { validateBatchDelete, validateBatchInsert } from './batch-body.js';
import { batchInsertParams, MAX_STATEMENT_PARAMS, planBatchDelete, planBatchInsert } from './batch-plan.js';
import { dbColumn } from './plan.js';
import { rowValue, SqlDriverError, type Row } from './drivers/driver.js';
import type { ValidWrite, WriteMethod } from './write-body.js';
import { WharfError } from '../errors/wharf-error.js';
import { writeFailure } from './write-errors.js';
import { fitsColumn } from './column-bounds.js';
import type { SqlWriteDeps } from './write-deps.js';
import { shapeRow } from './written-row.js';

/** Rows of one batch when neither the endpoint (MaxBatchRows) nor the server (Sql:MaxBatchRows) says otherwise. */
export const DEFAULT_MAX_BATCH_ROWS = 1000;

export interface SqlBatchResponse {
  readonly status: 200 | 201;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { success: true; message: string; count: number; result: unknown[] | null; id: unknown[] };
}

/** The endpoint's own limit, never above the server's. */
export function batchLimit(endpoint: SqlEndpoint, serverLimit: number): number {
  return Math.min(endpoint.maxBatchRows ?? serverLimit, serverLimit);
}

export async function handleSqlBatch(endpoint: SqlEndpoint, method: WriteMethod, items: readonly unknown[], deps: SqlWriteDeps): Promise<SqlBatchResponse> {
  const limit = batchLimit(endpoint, deps.maxBatchRows ?? DEFAULT_MAX_BATCH_ROWS);
  const keyColumn = dbColumn(endpoint, endpoint.primaryKey as string);
  if (method === 'DELETE') {
    const keys = validateBatchDelete(items, limit);
    // a key outside the key column's type has no record either (column-bounds.ts): no SQL for it
    if (!keys.every((key) => fitsColumn(deps.columnKinds, keyColumn, key))) throw new WharfError('SQL_BATCH_NOT_FOUND');
    const q = deps.compiler.compileBatchDelete(planBatchDelete(endpoint, keys));
    const rows = await deps.driver.query(q.sql, q.params);
    if (rows.length < keys.length) throw new WharfError('SQL_BATCH_NOT_FOUND');
    // Babelfish answers OUTPUT column names lower-cased
    const ids = rows.map((r) => rowValue(r, keyColumn));
    return { status: 200, headers: {}, body: { success: true, message: 'Records deleted successfully', count: ids.length, result: null, id: ids } };
  }
  if (method !== 'POST') throw new WharfError('SQL_BODY_NOT_OBJECT');
  const valid = validateBatchInsert(endpoint, items, limit, deps.columnKinds);
  const plan = planBatchInsert(endpoint, valid);
  const maxParams = MAX_STATEMENT_PARAMS[deps.compiler.dialect];
  if (batchInsertParams(plan) > maxParams) {
    throw new WharfError('SQL_BATCH_TOO_LARGE', { reason: `A batch may carry at most ${maxParams} values on this database; this one has ${batchInsertParams(plan)}` });
  }
  const q = deps.compiler.compileBatchInsert(plan);
  let stored: Row[];
  try {
    stored = await deps.driver.query(q.sql, q.params);
  } catch (error) {
    throw refusedRow(endpoint, valid, error) ?? error;
  }
  const rows = stored.map((row) => shapeRow(endpoint, row));
  const keyName = endpoint.columns.find((c) => c.db === keyColumn)?.name ?? keyColumn;
  return {
    status: 201,
    headers: {},
    body: { success: true, message: 'Records created successfully', count: rows.length, result: rows, id: rows.map((r) => r?.[keyName] ?? null) },
  };
}

/**
 * A database refusal of a batch INSERT, answered like a single write and naming the row when the
 * database names the refused value (PostgreSQL unique and foreign keys): the last row holding it
 * (a duplicate inside the batch is the later row).
 */
function refusedRow(endpoint: SqlEndpoint, rows: readonly ValidWrite[], error: unknown): WharfError | null {
  const v = error instanceof SqlDriverError ? error.violation : null;
  const column = v?.column?.toLowerCase();
  let index = -1;
  if (v && v.value !== undefined && v.value !== null && column !== undefined) {
    rows.forEach((row, i) => {
      if (row.values.some((c) => c.column.toLowerCase() === column && c.value.value !== null && String(c.value.value) === v.value)) index = i;
    });
  }
  return writeFailure(endpoint, error, false, index < 0 ? undefined : index);
}
