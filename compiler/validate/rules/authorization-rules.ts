/**
 * `Authorization.Rules`: a RowFilter must parse (OData, `@claims.name` values) against the
 * endpoint's AllowedColumns; Columns must be exposed columns; RowFilter and Columns belong to SQL
 * and Static endpoints, ForwardClaims to Proxy endpoints; a RowFilter cannot guard writes that go
 * through a stored procedure (the gateway cannot add it to the procedure's statement).
 */
import { rowFilterProblem } from '../../../runtime/auth/rules/row-filter.js';
import type { Diagnostic } from '../../diagnostics.js';
import type { AuthorizationConfig, SqlConfig } from '../../model/config.js';
import { parseColumns } from '../../model/column-spec.js';
import { DEFAULTS } from '../../model/defaults.js';
import { effectiveMethods } from '../../model/normalize.js';
import { ruleColumnMap } from '../../model/normalize-authorization.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

const WRITES = ['POST', 'PUT', 'PATCH', 'MERGE', 'DELETE'];
/** Headers the proxy sets or withholds itself (runtime/proxy/request-headers.ts). */
const RESERVED_HEADERS = /^(authorization|cookie|host|content-length|content-type|accept|accept-encoding|connection|transfer-encoding|x-request-id|forwarded|x-forwarded-.*|proxy.*)$/i;

export const authorizationRulesRule: EntityRule = {
  name: 'authorization-rules',
  scope: 'entity',
  codes: ['authorization-row-filter', 'authorization-column', 'authorization-not-supported'],
  kinds: ['sql', 'static', 'proxy'],
  check(ctx) {
    const authorization = (ctx.config as { Authorization?: AuthorizationConfig }).Authorization;
    if (authorization === undefined) return [];
    const out: Diagnostic[] = [];
    const sql = ctx.kind === 'sql' ? (ctx.config as unknown as SqlConfig) : null;
    const exposed = sql ? parseColumns(sql.AllowedColumns).map((c) => c.name) : null;
    authorization.Rules.forEach((rule, i) => {
      const at = (field: string) => pointer('', 'Authorization', 'Rules', i, field);
      if (ctx.kind === 'proxy') {
        for (const field of ['RowFilter', 'Columns'] as const) {
          if (rule[field] !== undefined) {
            out.push(error(ctx, 'authorization-not-supported', at(field), `${field} does not apply to Proxy endpoints`, { hint: 'Use ForwardClaims to pass claims to the upstream, which filters its own data.' }));
          }
        }
        for (const header of Object.keys(rule.ForwardClaims ?? {})) {
          if (RESERVED_HEADERS.test(header)) {
            out.push(error(ctx, 'authorization-not-supported', pointer('', 'Authorization', 'Rules', i, 'ForwardClaims', header), `ForwardClaims cannot set the header '${header}'`, { hint: 'The gateway sets or withholds it itself; use a header of your own, like X-Customer-Id.' }));
          }
        }
      } else if (rule.ForwardClaims !== undefined) {
        out.push(error(ctx, 'authorization-not-supported', at('ForwardClaims'), 'ForwardClaims applies to Proxy endpoints only'));
      }
      if (rule.RowFilter !== undefined && ctx.kind !== 'proxy') {
        const writes = (rule.Methods ?? effectiveMethods(ctx)).some((m) => WRITES.includes(m));
        if (sql && (sql.WriteMode ?? DEFAULTS.sql.WriteMode) === 'Procedure' && writes) {
          out.push(error(ctx, 'authorization-not-supported', at('RowFilter'), 'A RowFilter cannot guard writes made by a stored procedure', { hint: "Limit the rule's Methods to reads (GET, QUERY), or write in Table mode." }));
        }
        const problem = rowFilterProblem(rule.RowFilter, ruleColumnMap(ctx));
        if (problem !== null) {
          out.push(error(ctx, 'authorization-row-filter', at('RowFilter'), problem, { hint: "OData as in $filter, over AllowedColumns; claims as @claims.name (e.g. CustomerId eq @claims.customer_id)." }));
        }
      }
      if (exposed !== null) {
        (rule.Columns ?? []).forEach((column, j) => {
          if (!exposed.includes(column)) {
            out.push(error(ctx, 'authorization-column', pointer('', 'Authorization', 'Rules', i, 'Columns', j), `Column '${column}' is not one of the exposed AllowedColumns`, { hint: 'Columns lists exposed names (aliases where AllowedColumns gives one).' }));
          }
        });
      }
    });
    return out;
  },
};
