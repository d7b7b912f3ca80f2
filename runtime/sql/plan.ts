/**
 * Database-neutral read plan: what to select, from where, filtered, ordered and paged how.
 * Built from the endpoint model + the parsed OData query; compiled per dialect in compile/.
 * Every identifier in a plan comes from the model (allow-list, schema, object, keys).
 */
import type { SqlEndpoint } from '../contract/model.js';
import type { FilterExpr, Literal, ODataQuery } from './odata/ast.js';
import { ODATA_LIMITS } from './odata/limits.js';

/** Types a parameter can carry; mssql maps them to explicit driver types. */
export type ParamType =
  | 'string' | 'int' | 'bigint' | 'decimal' | 'float' | 'boolean'
  | 'date' | 'datetime' | 'time' | 'guid';

export interface TypedValue {
  readonly type: ParamType;
  /** null = SQL NULL. Decimals stay strings (no float rounding). */
  readonly value: string | number | boolean | null;
  /** Declared SQL type (TVF parameters), used for precision/length on mssql. */
  readonly sqlType?: string;
}

export interface ObjectRef {
  readonly schema: string;
  readonly object: string;
}

export interface ColumnRef {
  /** Database column. */
  readonly column: string;
  /** Output name (the exposed name). */
  readonly name: string;
  /** Selected as its exact text where the dialect can (keyset values: no precision lost on the way). */
  readonly asText?: boolean;
}

export type FunctionArg =
  | { readonly name: string; readonly kind: 'value'; readonly value: TypedValue }
  | { readonly name: string; readonly kind: 'default' };

export interface ExpandPlan {
  readonly name: string;
  readonly multiplicity: 'ToOne' | 'ToMany';
  readonly target: ObjectRef;
  /** Column of the outer (base) object. */
  readonly localColumn: string;
  /** Column of the target object. */
  readonly targetColumn: string;
  readonly select: readonly ColumnRef[];
  /** Ordering of to-many rows (the target's key), null when it has none. */
  readonly orderColumn: string | null;
  /** Row cap for to-many. */
  readonly limit: number;
}

export interface OrderColumn {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

export interface KeysetColumn extends OrderColumn {
  /** False for the primary key (never NULL): no NULL branch is compiled for it. */
  readonly nullable: boolean;
}

/** Keyset paging (keyset.ts): rows strictly after `values` in the order of `columns`. */
export interface KeysetCondition {
  readonly columns: readonly KeysetColumn[];
  /** One per column; value null = SQL NULL. */
  readonly values: readonly TypedValue[];
}

export interface ReadPlan {
  readonly source: ObjectRef;
  /** Table-valued function arguments in declaration order; null for tables and views. */
  readonly args: readonly FunctionArg[] | null;
  readonly select: readonly ColumnRef[];
  readonly where: FilterExpr | null;
  /** Requested order plus the key as tie-breaker (when there is a key). */
  readonly orderBy: readonly OrderColumn[];
  /** Rows to skip and rows to fetch (page size + 1 to detect a next page); null = unpaged. */
  readonly page: { readonly skip: number; readonly fetch: number } | null;
  readonly expand: readonly ExpandPlan[];
  /** Keyset paging: only rows after the previous page's last row (keyset.ts); ANDed with `where`. */
  readonly keyset?: KeysetCondition | null;
}

export interface CountPlan {
  readonly source: ObjectRef;
  readonly args: readonly FunctionArg[] | null;
  readonly where: FilterExpr | null;
}

/** db column for a configured key/column name: an exposed name maps to its column, else as written. */
export function dbColumn(endpoint: SqlEndpoint, name: string): string {
  return endpoint.columns.find((c) => c.name === name)?.db ?? name;
}

function allColumns(endpoint: SqlEndpoint): ColumnRef[] {
  return endpoint.columns.map((c) => ({ column: c.db, name: c.name }));
}

export interface PlanInput {
  readonly endpoint: SqlEndpoint;
  readonly query: ODataQuery;
  readonly args: readonly FunctionArg[] | null;
  /** Target endpoints of the endpoint's relationships, by relationship name. */
  readonly relationTargets: ReadonlyMap<string, SqlEndpoint>;
  readonly pageSize: number;
}

export function planRead(input: PlanInput): ReadPlan {
  const { endpoint, query } = input;
  const orderBy: OrderColumn[] = query.orderby.map((o) => ({ column: o.member.column, direction: o.direction }));
  const key = endpoint.primaryKey === null ? null : dbColumn(endpoint, endpoint.primaryKey);
  if (key !== null && !orderBy.some((o) => o.column === key)) orderBy.push({ column: key, direction: 'asc' });
  return {
    source: { schema: endpoint.schema, object: endpoint.objectName },
    args: input.args,
    select: query.select ? query.select.map((m) => ({ column: m.column, name: m.name })) : allColumns(endpoint),
    where: query.filter,
    orderBy,
    page: { skip: query.skip, fetch: (query.top ?? input.pageSize) + 1 },
    expand: query.expand.map((item) => {
      const rel = endpoint.relationships.find((r) => r.name === item.name);
      const target = input.relationTargets.get(item.name);
      if (!rel || !target) throw new Error(`relationship ${item.name} has no target endpoint`);
      const cols = allColumns(target);
      return {
        name: rel.name,
        multiplicity: rel.multiplicity,
        target: { schema: target.schema, object: target.objectName },
        localColumn: dbColumn(endpoint, rel.localColumn),
        targetColumn: dbColumn(target, rel.targetColumn),
        select: item.select ? item.select.map((n) => cols.find((c) => c.name === n) as ColumnRef) : cols,
        orderColumn: target.primaryKey === null ? null : dbColumn(target, target.primaryKey),
        limit: ODATA_LIMITS.maxTop,
      };
    }),
  };
}

export function planCount(input: PlanInput): CountPlan {
  return { source: { schema: input.endpoint.schema, object: input.endpoint.objectName }, args: input.args, where: input.query.filter };
}

/** One row by primary key: the read plan with `key eq <value>` as the only filter, unpaged. */
export function planById(input: PlanInput, key: TypedValue): ReadPlan {
  const { endpoint } = input;
  if (endpoint.primaryKey === null) throw new Error(`endpoint ${endpoint.id} has no primary key`);
  const column = dbColumn(endpoint, endpoint.primaryKey);
  const base = planRead(input);
  return {
    ...base,
    where: { kind: 'compare', op: 'eq', left: { kind: 'member', name: endpoint.primaryKey, column }, right: keyLiteral(key) },
    orderBy: [],
    page: null,
  };
}

/** The literal a key is compared with in planById (compiled, it is the key's parameter). */
export function keyLiteral(key: TypedValue): Exclude<Literal, { type: 'null' }> {
  if (key.type === 'int' && typeof key.value === 'number') return { kind: 'literal', type: 'int', value: key.value };
  if (key.type === 'guid') return { kind: 'literal', type: 'guid', value: String(key.value) };
  return { kind: 'literal', type: 'string', value: String(key.value) };
}
