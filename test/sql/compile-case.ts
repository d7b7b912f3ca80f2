/** Build the plan of a table case the way the handler does (shared by compile and execute tests). */
import type { SqlCompiler } from '../../runtime/sql/compile/compiler.js';
import { functionArgs } from '../../runtime/sql/function-args.js';
import { columnMap } from '../../runtime/sql/handler.js';
import type { ODataQuery } from '../../runtime/sql/odata/ast.js';
import { parseQueryOptions } from '../../runtime/sql/odata/options.js';
import { planCount, planRead, type PlanInput, type TypedValue } from '../../runtime/sql/plan.js';
import type { SqlCase } from './cases.js';
import { SQL_ENDPOINTS, endpoint } from './fixtures.js';

export function planInput(c: SqlCase): PlanInput & { query: ODataQuery } {
  const e = endpoint(c.endpoint);
  const targets = new Map(e.relationships.map((r) => [r.name, SQL_ENDPOINTS.get(r.targetId)!]));
  const isFunction = e.objectType === 'TableValuedFunction';
  const query = parseQueryOptions(c.options, {
    columns: columnMap(e),
    relationships: isFunction ? null : new Map([...targets].map(([n, t]) => [n, columnMap(t)])),
  });
  const args = isFunction ? functionArgs(e.functionParameters, c.segments ?? [], c.query ?? {}) : null;
  return { endpoint: e, query, args, relationTargets: targets, pageSize: 100 };
}

export function showParams(params: readonly TypedValue[]): string[] {
  return params.map((p) => `${p.type}:${String(p.value)}`);
}

export function compileCase(c: SqlCase, compiler: SqlCompiler) {
  const input = planInput(c);
  return {
    input,
    list: compiler.compileRead(planRead(input)),
    count: input.query.count ? compiler.compileCount(planCount(input)) : null,
  };
}
