/**
 * An Authorization rule applied to a SQL endpoint (runtime/auth/rules): the endpoint as the rule
 * sees it (AllowedColumns narrowed to the rule's Columns, so $select, $filter, $orderby, writes and
 * the response all know only those) and the RowFilter with the caller's claims bound as literals.
 */
import type { AuthorizationRule, SqlEndpoint } from '../contract/model.js';
import { bindRowFilter } from '../auth/rules/row-filter.js';
import type { FilterExpr, Member } from './odata/ast.js';
import type { ColumnMap } from './odata/filter-parser.js';

export interface SqlRuleScope {
  readonly endpoint: SqlEndpoint;
  readonly columnsByName: ColumnMap | undefined;
  /** ANDed to every read, update and delete; checked against every insert. null = none. */
  readonly rowFilter: FilterExpr | null;
}

const NARROWED = new WeakMap<AuthorizationRule, { endpoint: SqlEndpoint; columnsByName: ColumnMap }>();

function narrowed(endpoint: SqlEndpoint, rule: AuthorizationRule, columns: readonly string[]) {
  let found = NARROWED.get(rule);
  if (found === undefined) {
    const kept = endpoint.columns.filter((c) => columns.includes(c.name));
    found = { endpoint: { ...endpoint, columns: kept }, columnsByName: Object.fromEntries(kept.map((c) => [c.name, c.db])) };
    NARROWED.set(rule, found);
  }
  return found;
}

export function sqlRuleScope(endpoint: SqlEndpoint, rule: AuthorizationRule | null, claims: Readonly<Record<string, unknown>>, columnsByName?: ColumnMap): SqlRuleScope {
  if (rule === null) return { endpoint, columnsByName, rowFilter: null };
  const view = rule.columns === null ? { endpoint, columnsByName } : narrowed(endpoint, rule, rule.columns);
  const first = endpoint.columns[0];
  const anyColumn: Member = { kind: 'member', name: first?.name ?? 'Id', column: first?.db ?? 'Id' };
  const rowFilter = rule.rowFilterAst === null ? null : bindRowFilter(rule.rowFilterAst as FilterExpr, claims, anyColumn);
  return { ...view, rowFilter };
}

/** `a AND b`, either side absent. */
export function andFilter(a: FilterExpr | null, b: FilterExpr | null): FilterExpr | null {
  if (a === null) return b;
  if (b === null) return a;
  return { kind: 'logical', op: 'and', left: a, right: b };
}
