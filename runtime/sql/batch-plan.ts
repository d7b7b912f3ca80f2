/**
 * Database-neutral plans of a batch write (Table mode), compiled by the same SqlCompiler:
 *   insert: one multi-row `INSERT ... VALUES (...), (...)` with RETURNING / OUTPUT INSERTED; the
 *           columns are the union of the rows' columns in first-seen order, a row without one
 *           takes the column's DEFAULT (null in `rows`);
 *   delete: one `DELETE ... WHERE key IN (...)` that removes the rows only when every key exists
 *           (`AND (SELECT COUNT(*) ... WHERE key IN (...)) = n`), returning the deleted keys.
 * One statement each, so each is atomic by itself on every dialect.
 */
import type { SqlEndpoint } from '../contract/model.js';
import { dbColumn, type ColumnRef, type ObjectRef, type TypedValue } from './plan.js';
import type { ValidWrite } from './write-body.js';

export interface BatchInsertPlan {
  readonly target: ObjectRef;
  readonly columns: readonly string[];
  /** One entry per row and column; null = DEFAULT (the row does not give the column). */
  readonly rows: readonly (readonly (TypedValue | null)[])[];
  readonly returning: readonly ColumnRef[];
}

export interface BatchDeletePlan {
  readonly target: ObjectRef;
  readonly keyColumn: string;
  /** Distinct keys. */
  readonly keys: readonly TypedValue[];
}

export function planBatchInsert(endpoint: SqlEndpoint, rows: readonly ValidWrite[]): BatchInsertPlan {
  const columns: string[] = [];
  for (const row of rows) for (const v of row.values) if (!columns.includes(v.column)) columns.push(v.column);
  return {
    target: { schema: endpoint.schema, object: endpoint.objectName },
    columns,
    rows: rows.map((row) => columns.map((column) => row.values.find((v) => v.column === column)?.value ?? null)),
    returning: endpoint.columns.map((c) => ({ column: c.db, name: c.db })),
  };
}

export function planBatchDelete(endpoint: SqlEndpoint, keys: readonly TypedValue[]): BatchDeletePlan {
  return { target: { schema: endpoint.schema, object: endpoint.objectName }, keyColumn: dbColumn(endpoint, endpoint.primaryKey as string), keys };
}

/** Parameters one statement may carry: PostgreSQL's protocol limit, SQL Server's 2,100 (less two for safety). */
export const MAX_STATEMENT_PARAMS: Readonly<Record<'postgres' | 'mssql', number>> = { postgres: 65_535, mssql: 2_098 };

/** Parameters the compiled statement of a plan needs. */
export function batchInsertParams(plan: BatchInsertPlan): number {
  return plan.rows.reduce((n, row) => n + row.filter((v) => v !== null).length, 0);
}
