/** Compile a table case with the handler's own compileRead (shared by compile and execute tests). */
import type { SqlCompiler } from '../../runtime/sql/compile/compiler.js';
import { compileRead } from '../../runtime/sql/compile-read.js';
import type { TypedValue } from '../../runtime/sql/plan.js';
import type { SqlCase } from './cases.js';
import { SQL_ENDPOINTS, endpoint } from './fixtures.js';

export function showParams(params: readonly TypedValue[]): string[] {
  return params.map((p) => `${p.type}:${String(p.value)}`);
}

export function compileCase(c: SqlCase, compiler: SqlCompiler) {
  return compileRead(
    endpoint(c.endpoint),
    { options: c.options, segments: c.segments ?? [], query: c.query ?? {} },
    compiler,
    { resolveEndpoint: (id) => SQL_ENDPOINTS.get(id) },
  );
}
