/**
 * The options that go with `$apply` (SQL and Static alike): `$orderby` over the result's fields
 * (grouping names and aliases), `$top` and `$skip`. `$select`, `$filter` (use filter(...) inside
 * $apply), `$expand`, `$count` and `$skiptoken` are refused with a 400. Sum and average need number
 * columns when the column kinds are known. Every field of the result must reach the response under
 * its own name: an alias that ResponseTransforms remove or mask, or that shares its response name
 * with another field (a Rename), is a 400 (responseNameProblem).
 */
import type { ResponseTransforms } from '../../contract/model.js';
import type { OrderItem } from './ast.js';
import { applyOutputNames, type ApplyQuery } from './apply-ast.js';
import { parseApply } from './apply-parser.js';
import { ODataError } from './errors.js';
import { atPositionOf } from './positions.js';
import type { ColumnMap } from './filter-parser.js';
import type { HiddenColumns } from './hidden-columns.js';
import { parseOrderby, parseSkip, parseTop, type RawOptions } from './options.js';
import { checkFilterTypes, type ColumnKinds } from './type-check.js';

export interface ApplyRequest {
  readonly apply: ApplyQuery;
  /** Over the result's fields: `member.column` is the field name. */
  readonly orderby: readonly OrderItem[];
  readonly top: number | null;
  readonly skip: number;
}

const NOT_WITH_APPLY: ReadonlyArray<readonly [keyof RawOptions, string]> = [
  ['filter', '$filter cannot be combined with $apply; put filter(...) first inside $apply'],
  ['select', '$select cannot be combined with $apply; the result has the grouping columns and the aliases'],
  ['expand', '$expand cannot be combined with $apply'],
  ['count', '$count cannot be combined with $apply'],
  ['skiptoken', '$skiptoken cannot be combined with $apply'],
];

/** The first result field that would not reach the response under its own name, as the 400's text. */
function responseNameProblem(apply: ApplyQuery, t: ResponseTransforms): string | null {
  for (const a of apply.aggregates) {
    if (t.remove.includes(a.alias)) return `alias '${a.alias}' is removed from responses; choose another alias`;
    if (t.mask.includes(a.alias)) return `alias '${a.alias}' is masked in responses; choose another alias`;
  }
  const responseName = (name: string) => (Object.hasOwn(t.rename, name) ? (t.rename[name] as string) : name);
  const taken = new Map<string, string>();
  for (const g of apply.groupBy) taken.set(responseName(g.name), `the grouping column '${g.name}'`);
  for (const a of apply.aggregates) {
    const name = responseName(a.alias);
    const other = taken.get(name);
    if (other !== undefined) return `alias '${a.alias}' and ${other} would both be '${name}' in the response (ResponseTransforms Rename)`;
    taken.set(name, `alias '${a.alias}'`);
  }
  return null;
}

export function parseApplyRequest(
  raw: RawOptions,
  columns: ColumnMap,
  hidden: HiddenColumns,
  transforms: ResponseTransforms,
  kinds?: ColumnKinds,
): ApplyRequest {
  for (const [key, message] of NOT_WITH_APPLY) if (raw[key] !== undefined) throw new ODataError(message);
  const apply = parseApply(raw.apply as string, columns, hidden);
  const problem = responseNameProblem(apply, transforms);
  if (problem !== null) throw new ODataError(`$apply: ${problem}`);
  if (kinds) {
    if (apply.filter) checkFilterTypes(apply.filter, kinds, '$apply: filter');
    for (const a of apply.aggregates) {
      if (a.kind !== 'method' || (a.method !== 'sum' && a.method !== 'average')) continue;
      const kind = kinds.get(a.member.column);
      if (kind !== undefined && kind !== 'number') throw new ODataError(`$apply: ${a.method} needs a number column; ${a.member.name} is a ${kind}${atPositionOf(a.member)}`);
    }
  }
  const outputs = Object.fromEntries(applyOutputNames(apply).map((n) => [n, n]));
  return {
    apply,
    orderby: raw.orderby === undefined ? [] : parseOrderby(raw.orderby, outputs),
    top: raw.top === undefined ? null : parseTop(raw.top),
    skip: raw.skip === undefined ? 0 : parseSkip(raw.skip),
  };
}
