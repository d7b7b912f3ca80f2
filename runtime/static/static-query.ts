/**
 * OData over Static rows, in memory, with the SQL path's parser and AST: options (query string or
 * QUERY body) -> ODataQuery against the content's fields -> filter -> order -> count -> page ->
 * select. Masked or removed fields are refused in $filter and $orderby (hidden-columns.ts).
 */
import type { StaticDataset, StaticRow } from '../contract/static-content.js';
import { filterRows } from '../sql/odata/evaluate.js';
import type { HiddenColumns } from '../sql/odata/hidden-columns.js';
import { ODATA_LIMITS } from '../sql/odata/limits.js';
import { ODataError } from '../sql/odata/errors.js';
import { orderRows } from '../sql/odata/order-rows.js';
import { parseQueryOptions } from '../sql/odata/options.js';
import type { RawOptions } from '../sql/odata/options.js';

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

export function runStaticQuery(dataset: StaticDataset, raw: RawOptions, hidden: HiddenColumns): StaticQueryResult {
  if (raw.expand !== undefined) throw new ODataError('$expand is not supported on Static endpoints');
  const columns = Object.fromEntries(dataset.columns.map((column) => [column, column]));
  const query = parseQueryOptions(raw, { columns, relationships: null, hidden });
  const matching = orderRows(filterRows(dataset.rows, query.filter), query.orderby);
  const top = query.top ?? ODATA_LIMITS.defaultTop;
  const page = matching.slice(query.skip, query.skip + top);
  const selected = query.select === null ? dataset.columns : query.select.map((member) => member.column);
  const rows = query.select === null ? page : page.map((row) => Object.fromEntries(selected.map((c) => [c, row[c] ?? null])));
  return {
    rows,
    columns: selected,
    total: matching.length,
    top,
    skip: query.skip,
    hasMore: top > 0 && query.skip + top < matching.length,
  };
}
