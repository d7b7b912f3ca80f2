/**
 * The parsed OData `$apply` (aggregation): `filter(...)` transformations first (ANDed), then one
 * `groupby((A,B),aggregate(...))` or `aggregate(...)`. Members are resolved against the allow-list
 * like `$filter` (`name` exposed, `column` database).
 */
import type { FilterExpr, Member } from './ast.js';

export const AGGREGATE_METHODS = ['sum', 'average', 'min', 'max', 'countdistinct'] as const;
export type AggregateMethod = (typeof AGGREGATE_METHODS)[number];

export type Aggregate =
  /** `Col with sum as Alias` */
  | { readonly kind: 'method'; readonly method: AggregateMethod; readonly member: Member; readonly alias: string }
  /** `$count as Alias`: rows of the group. */
  | { readonly kind: 'count'; readonly alias: string };

export interface ApplyQuery {
  readonly filter: FilterExpr | null;
  /** Grouping members in request order; empty = one row over everything (`aggregate(...)`). */
  readonly groupBy: readonly Member[];
  readonly aggregates: readonly Aggregate[];
}

/** Names of the result's fields: the grouping members' exposed names, then the aliases. */
export function applyOutputNames(apply: ApplyQuery): string[] {
  return [...apply.groupBy.map((m) => m.name), ...apply.aggregates.map((a) => a.alias)];
}
