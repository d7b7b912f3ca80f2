/**
 * Database-neutral plan of an aggregation (`$apply`): grouped and aggregated rows of the
 * endpoint's object, filtered first, then ordered and paged over the result's fields.
 *   SELECT <group columns>, <aggregates> FROM <object> AS t [WHERE ...] [GROUP BY ...] [ORDER BY ...] <page>
 * Every identifier comes from the model (the allow-list) or is a checked alias; values are parameters.
 */
import type { SqlEndpoint } from '../contract/model.js';
import type { FilterExpr, OrderItem } from './odata/ast.js';
import type { AggregateMethod, ApplyQuery } from './odata/apply-ast.js';
import type { ColumnRef, ObjectRef } from './plan.js';
import type { ColumnKinds } from './odata/type-check.js';
import { isIntegerColumn } from './column-bounds.js';

export interface AggregateItem {
  /** `count` = `$count` (rows of the group). */
  readonly method: AggregateMethod | 'count';
  /** Database column; null for `count`. */
  readonly column: string | null;
  readonly alias: string;
  /** The column is of an integer type (catalogue): SQL Server sums it as bigint (its SUM of an int is an int and overflows). */
  readonly integer?: boolean;
}

export interface AggregatePlan {
  readonly source: ObjectRef;
  readonly where: FilterExpr | null;
  readonly groupBy: readonly ColumnRef[];
  readonly aggregates: readonly AggregateItem[];
  /** Over the result's field names (grouping names and aliases); the grouping columns when none is given. */
  readonly orderBy: readonly { readonly name: string; readonly direction: 'asc' | 'desc' }[];
  /** null when there is no grouping (one row). */
  readonly page: { readonly skip: number; readonly fetch: number } | null;
}

export interface AggregateInput {
  readonly endpoint: SqlEndpoint;
  readonly apply: ApplyQuery;
  /** `$orderby` resolved against the result's fields (member.column = the field name). */
  readonly orderby: readonly OrderItem[];
  readonly top: number;
  readonly skip: number;
  /** Column kinds from the catalogue (column-types.ts), when read: which columns are integers. */
  readonly kinds?: ColumnKinds;
}

export function planAggregate(input: AggregateInput): AggregatePlan {
  const { apply } = input;
  const groupBy = apply.groupBy.map((m) => ({ column: m.column, name: m.name }));
  const orderBy = input.orderby.map((o) => ({ name: o.member.column, direction: o.direction }));
  // a stable order for paging: the grouping columns as tie-breakers
  for (const g of groupBy) if (!orderBy.some((o) => o.name === g.name)) orderBy.push({ name: g.name, direction: 'asc' });
  return {
    source: { schema: input.endpoint.schema, object: input.endpoint.objectName },
    where: apply.filter,
    groupBy,
    aggregates: apply.aggregates.map((a) => (a.kind === 'count'
      ? { method: 'count', column: null, alias: a.alias }
      : { method: a.method, column: a.member.column, alias: a.alias, ...(isIntegerColumn(input.kinds, a.member.column) ? { integer: true } : {}) })),
    orderBy,
    page: groupBy.length === 0 ? null : { skip: input.skip, fetch: input.top + 1 },
  };
}
