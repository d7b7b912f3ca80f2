/**
 * Database-neutral write plans (Table mode and stored procedures), compiled per dialect by the
 * same SqlCompiler as reads. Identifiers come only from the model (AllowedColumns, schema, object,
 * key, procedure); every value is a TypedValue that becomes a parameter.
 */
import type { SqlEndpoint } from '../contract/model.js';
import type { ObjectRef, ColumnRef, TypedValue } from './plan.js';
import type { ColumnValue, ValidWrite, WriteMethod } from './write-body.js';
import type { FilterExpr } from './odata/ast.js';
import type { ColumnKinds } from './odata/type-check.js';
import { isReadOnly } from './read-only-columns.js';

export interface KeyMatch {
  readonly column: string;
  readonly value: TypedValue;
  /** An Authorization rule's RowFilter (claims bound), ANDed to the key: a row outside it is not found. */
  readonly rowFilter?: FilterExpr | null;
}

/** INSERT ... RETURNING / OUTPUT INSERTED: the written row, with the exposed names. */
export interface InsertPlan {
  readonly target: ObjectRef;
  readonly values: readonly ColumnValue[];
  readonly returning: readonly ColumnRef[];
}

/** UPDATE ... WHERE key = value (full: every column; partial: the given ones). */
export interface UpdatePlan {
  readonly target: ObjectRef;
  readonly set: readonly ColumnValue[];
  readonly key: KeyMatch;
  readonly returning: readonly ColumnRef[];
}

/** DELETE ... WHERE key = value, returning the key of each deleted row. */
export interface DeletePlan {
  readonly target: ObjectRef;
  readonly key: KeyMatch;
}

export interface ProcedureArg {
  /** Parameter name without `@` (a database column name, or `Method`). */
  readonly name: string;
  readonly value: TypedValue;
}

/** A stored-procedure call with named arguments; `asFunction` = PostgreSQL function (SELECT * FROM). */
export interface ProcedurePlan {
  readonly procedure: ObjectRef;
  readonly args: readonly ProcedureArg[];
  readonly asFunction: boolean;
}

/** `schema.name` (or `name` in the endpoint's schema) as an object reference. */
export function procedureRef(procedure: string, defaultSchema: string): ObjectRef {
  const dot = procedure.lastIndexOf('.');
  return dot < 0 ? { schema: defaultSchema, object: procedure } : { schema: procedure.slice(0, dot), object: procedure.slice(dot + 1) };
}

function target(endpoint: SqlEndpoint): ObjectRef {
  return { schema: endpoint.schema, object: endpoint.objectName };
}

function allColumns(endpoint: SqlEndpoint): ColumnRef[] {
  return endpoint.columns.map((c) => ({ column: c.db, name: c.db }));
}

const NULL: TypedValue = { type: 'string', value: null };

/** Table mode: the body's columns, returning every allowed column (db names; the handler maps aliases). */
export function planInsert(endpoint: SqlEndpoint, valid: ValidWrite): InsertPlan {
  return { target: target(endpoint), values: valid.values, returning: allColumns(endpoint) };
}

/**
 * PUT sets every allowed column but the key and the columns the database sets itself
 * (read-only-columns.ts; absent ones to NULL: the body is the whole record); PATCH sets the given
 * ones. An empty SET (only the key given) is null: nothing to update.
 */
export function planUpdate(endpoint: SqlEndpoint, method: 'PUT' | 'PATCH', valid: ValidWrite, kinds?: ColumnKinds): UpdatePlan | null {
  const keyColumn = endpoint.primaryKey as string;
  const given = valid.values.filter((v) => v.column !== keyColumn);
  const set = method === 'PUT'
    ? endpoint.columns.filter((c) => c.db !== keyColumn && !isReadOnly(kinds, c.db)).map((c) => given.find((v) => v.column === c.db) ?? { column: c.db, value: NULL })
    : given;
  if (set.length === 0) return null;
  return { target: target(endpoint), set, key: { column: keyColumn, value: valid.key as TypedValue }, returning: allColumns(endpoint) };
}

export function planDelete(endpoint: SqlEndpoint, valid: ValidWrite): DeletePlan {
  return { target: target(endpoint), key: { column: endpoint.primaryKey as string, value: valid.key as TypedValue } };
}

const PROCEDURE_METHOD: Readonly<Record<WriteMethod, string>> = { POST: 'INSERT', PUT: 'UPDATE', PATCH: 'PATCH', DELETE: 'DELETE' };

/** `Method` first, then the body's columns by database name, then the URL key when the body lacks it. */
export function planProcedure(endpoint: SqlEndpoint, method: WriteMethod, valid: ValidWrite, asFunction: boolean): ProcedurePlan {
  const keyColumn = endpoint.primaryKey;
  const args: ProcedureArg[] = [{ name: 'Method', value: { type: 'string', value: PROCEDURE_METHOD[method] } }];
  for (const v of valid.values) args.push({ name: v.column, value: v.value });
  if (keyColumn !== null && valid.key !== null && !valid.values.some((v) => v.column === keyColumn)) {
    args.push({ name: keyColumn, value: valid.key });
  }
  return { procedure: procedureRef(endpoint.procedure as string, endpoint.schema), args, asFunction };
}
