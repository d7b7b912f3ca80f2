/**
 * OData over Static rows, in memory, with the SQL path's parser and AST: options (query string or
 * QUERY body) -> ODataQuery against the content's fields -> filter -> order -> count -> page ->
 * select -> ResponseTransforms; with `$apply`: filter -> group -> aggregate -> order -> page. Content is immutable per version (a new version is a new dataset), so
 * the filtered and ordered rows of recent queries are kept per dataset and paging reuses them. Masked or removed fields are refused in $filter and $orderby
 * (hidden-columns.ts): they must not be an oracle.
 */
import type { ResponseTransforms } from '../contract/model.js';
import type { StaticDataset, StaticRow } from '../contract/static-content.js';
import { applyTransforms, hasTransforms } from '../transforms/response-transforms.js';
import { filterRows } from '../sql/odata/evaluate.js';
import { hiddenColumns } from '../sql/odata/hidden-columns.js';
import { ODATA_LIMITS } from '../sql/odata/limits.js';
import { ODataError } from '../sql/odata/errors.js';
import { orderRows } from '../sql/odata/order-rows.js';
import { parseQueryOptions } from '../sql/odata/options.js';
import { aggregateRows } from '../sql/odata/aggregate-rows.js';
import { applyOutputNames } from '../sql/odata/apply-ast.js';
import { parseApplyRequest } from '../sql/odata/apply-options.js';
import type { ColumnMap } from '../sql/odata/filter-parser.js';
import type { HiddenColumns } from '../sql/odata/hidden-columns.js';
import type { RawOptions } from '../sql/odata/options.js';
import type { FilterExpr } from '../sql/odata/ast.js';
import { andFilter } from '../sql/rule-scope.js';

/** What an Authorization rule leaves of a Static endpoint: its RowFilter (claims bound) and Columns. */
export interface StaticRuleView {
  readonly rowFilter: FilterExpr | null;
  readonly columns: readonly string[] | null;
}

export interface StaticQueryResult {
  /** The page, reduced to the selected fields. */
  readonly rows: StaticRow[];
  /** Fields of the result, in order ($select order, else the content's). */
  readonly columns: readonly string[];
  /** Matching rows before paging. */
  readonly total: number;
  readonly top: number;
  readonly skip: number;
  readonly hasMore: boolean;
}

/** Field names after the transforms: removed ones dropped, renamed ones under their new name. */
export function transformedColumns(columns: readonly string[], t: ResponseTransforms): string[] {
  return columns.filter((c) => !t.remove.includes(c)).map((c) => (Object.hasOwn(t.rename, c) ? (t.rename[c] as string) : c));
}

/** Rows and field names as the client sees them. */
export function shapeRows(rows: readonly StaticRow[], columns: readonly string[], t: ResponseTransforms): { rows: StaticRow[]; columns: string[] } {
  if (!hasTransforms(t)) return { rows: [...rows], columns: [...columns] };
  return { rows: rows.map((row) => applyTransforms(row, t) as StaticRow), columns: transformedColumns(columns, t) };
}

/** Filtered and ordered rows per content version, by `$filter` and `$orderby` text (most recent 32). */
const MATCH_CACHE_SIZE = 32;
const matches = new WeakMap<StaticDataset, Map<string, StaticRow[]>>();

function matchingRows(dataset: StaticDataset, raw: RawOptions, compute: () => StaticRow[]): StaticRow[] {
  let cache = matches.get(dataset);
  if (!cache) matches.set(dataset, (cache = new Map()));
  const key = `${raw.filter ?? ''}\u0000${raw.orderby ?? ''}`;
  let rows = cache.get(key);
  if (rows) {
    cache.delete(key); // most recently used goes last
  } else {
    rows = compute();
    if (cache.size >= MATCH_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, rows);
  return rows;
}

export function runStaticQuery(dataset: StaticDataset, raw: RawOptions, transforms: ResponseTransforms, rule: StaticRuleView | null = null): StaticQueryResult {
  if (raw.expand !== undefined) throw new ODataError('$expand is not supported on Static endpoints');
  if (raw.skiptoken !== undefined) throw new ODataError('$skiptoken is not supported on Static endpoints');
  const visible = rule?.columns ? dataset.columns.filter((column) => rule.columns!.includes(column)) : dataset.columns;
  const columns = Object.fromEntries(visible.map((column) => [column, column]));
  const hidden = hiddenColumns(visible.map((column) => ({ db: column, name: column })), transforms);
  if (raw.apply !== undefined) return runStaticAggregate(dataset, raw, columns, hidden, transforms, rule?.rowFilter ?? null);
  const query = parseQueryOptions(raw, { columns, relationships: null, hidden });
  const rowFilter = rule?.rowFilter ?? null;
  // a RowFilter carries the caller's claims: its matches are not shared through the per-dataset cache
  const matching =
    rowFilter === null
      ? matchingRows(dataset, raw, () => orderRows(filterRows(dataset.rows, query.filter), query.orderby))
      : orderRows(filterRows(dataset.rows, andFilter(query.filter, rowFilter)), query.orderby);
  const top = query.top ?? ODATA_LIMITS.defaultTop;
  const page = matching.slice(query.skip, query.skip + top);
  const selected = query.select === null ? visible : query.select.map((member) => member.column);
  const projected = query.select === null && visible === dataset.columns ? page : page.map((row) => Object.fromEntries(selected.map((c) => [c, row[c] ?? null])));
  const shaped = shapeRows(projected, selected, transforms);
  return {
    rows: shaped.rows,
    columns: shaped.columns,
    total: matching.length,
    top,
    skip: query.skip,
    hasMore: top > 0 && query.skip + top < matching.length,
  };
}

/** `$apply` in memory (aggregate-rows.ts), ordered by `$orderby` then the grouping fields, paged like a list. */
/** `$apply` in memory; a rule's RowFilter (claims bound) narrows the rows before they are grouped. */
function runStaticAggregate(
  dataset: StaticDataset,
  raw: RawOptions,
  columns: ColumnMap,
  hidden: HiddenColumns,
  transforms: ResponseTransforms,
  rowFilter: FilterExpr | null,
): StaticQueryResult {
  const request = parseApplyRequest(raw, columns, hidden, transforms);
  const { apply } = request;
  const order = [...request.orderby];
  for (const g of apply.groupBy) {
    if (!order.some((o) => o.member.column === g.name)) order.push({ member: { kind: 'member', name: g.name, column: g.name }, direction: 'asc' });
  }
  const rows = rowFilter === null ? dataset.rows : filterRows(dataset.rows, rowFilter);
  const grouped = orderRows(aggregateRows(rows, apply), order) as StaticRow[];
  const top = request.top ?? ODATA_LIMITS.defaultTop;
  const page = apply.groupBy.length === 0 ? grouped : grouped.slice(request.skip, request.skip + top);
  const shaped = shapeRows(page, applyOutputNames(apply), transforms);
  return {
    rows: shaped.rows,
    columns: shaped.columns,
    total: grouped.length,
    top,
    skip: request.skip,
    hasMore: apply.groupBy.length > 0 && top > 0 && request.skip + top < grouped.length,
  };
}
