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
import { WriteRequestError, type WriteMethod } from './write-body.js';
import type { SqlWriteDeps } from './write-handler.js';
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
    const q = deps.compiler.compileBatchDelete(planBatchDelete(endpoint, keys));
    const rows = await deps.driver.query(q.sql, q.params);
    if (rows.length < keys.length) throw new WriteRequestError(404, 'Record not found: nothing was deleted');
    const ids = rows.map((r) => r[keyColumn]);
    return { status: 200, headers: {}, body: { success: true, message: 'Records deleted successfully', count: ids.length, result: null, id: ids } };
  }
  if (method !== 'POST') throw new WriteRequestError(400, 'Request body must be a JSON object');
  const plan = planBatchInsert(endpoint, validateBatchInsert(endpoint, items, limit, deps.columnKinds));
  const maxParams = MAX_STATEMENT_PARAMS[deps.compiler.dialect];
  if (batchInsertParams(plan) > maxParams) {
    throw new WriteRequestError(413, `A batch may carry at most ${maxParams} values on this database; this one has ${batchInsertParams(plan)}`);
  }
  const q = deps.compiler.compileBatchInsert(plan);
  const rows = (await deps.driver.query(q.sql, q.params)).map((row) => shapeRow(endpoint, row));
  const keyName = endpoint.columns.find((c) => c.db === keyColumn)?.name ?? keyColumn;
  return {
    status: 201,
    headers: {},
    body: { success: true, message: 'Records created successfully', count: rows.length, result: rows, id: rows.map((r) => r?.[keyName] ?? null) },
  };
}
