/**
 * `Authorization.Rules` of SQL, Static and Proxy endpoints into the model's AuthorizationRule list
 * (validated before: compiler/validate/rules/authorization-rules.ts). The RowFilter is parsed here,
 * at build time, into the OData AST the runtime binds claims into. Absent Authorization: no field
 * (EndpointBase.authorization is the one optional field of the model).
 */
import type { AuthorizationRule, EndpointAuthorization } from '../../runtime/contract/index.js';
import { parseRowFilter, type ColumnMap } from '../../runtime/auth/rules/row-filter.js';
import type { EntityContext } from '../stages.js';
import type { AuthorizationConfig, SqlConfig } from './config.js';
import { parseColumns } from './column-spec.js';

/** Static records have no declared columns: every name stands for itself. */
const ANY_NAME: ColumnMap = new Proxy({} as Record<string, string>, {
  get: (_target, name) => (typeof name === 'string' ? name : undefined),
  has: () => true,
  getOwnPropertyDescriptor: (_target, name) => ({ value: name, writable: false, enumerable: true, configurable: true }),
});

/** What a RowFilter may name: SQL exposed names -> database columns; Static: any name. */
export function ruleColumnMap(ctx: EntityContext): ColumnMap {
  if (ctx.kind !== 'sql') return ANY_NAME;
  return Object.fromEntries(parseColumns((ctx.config as unknown as SqlConfig).AllowedColumns).map((c) => [c.name, c.db]));
}

export function authorizationOf(ctx: EntityContext): { authorization?: EndpointAuthorization } {
  const config = (ctx.config as { Authorization?: AuthorizationConfig }).Authorization;
  if (config === undefined || (ctx.kind !== 'sql' && ctx.kind !== 'static' && ctx.kind !== 'proxy')) return {};
  const columns = ruleColumnMap(ctx);
  const rules: AuthorizationRule[] = config.Rules.map((rule) => ({
    scopes: [...rule.Scopes],
    methods: rule.Methods ? [...rule.Methods] : null,
    rowFilter: rule.RowFilter ?? null,
    rowFilterAst: rule.RowFilter === undefined || ctx.kind === 'proxy' ? null : parseRowFilter(rule.RowFilter, columns),
    columns: rule.Columns ? [...rule.Columns] : null,
    forwardClaims: { ...(rule.ForwardClaims ?? {}) },
  }));
  return { authorization: { rules } };
}
