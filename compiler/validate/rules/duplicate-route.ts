/**
 * Two endpoints must not answer the same path. Routes and aliases compare case-insensitively
 * (URLs are case-insensitive), across all types. Reported on every file after the first.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { EntityContext } from '../../stages.js';
import { routeKey } from '../../model/references.js';
import { error } from '../report.js';
import type { ProjectRule } from '../rule.js';

export const duplicateRouteRule: ProjectRule = {
  name: 'duplicate-route',
  scope: 'project',
  codes: ['duplicate-route'],
  check(project) {
    const owners = new Map<string, EntityContext>();
    const out: Diagnostic[] = [];
    const ordered = [...project.contexts].sort((a, b) => (a.parsed.source.file < b.parsed.source.file ? -1 : 1));
    for (const ctx of ordered) {
      const reported = new Set<string>();
      for (const route of [ctx.routePath, ...ctx.routeAliases]) {
        const key = routeKey(route);
        const first = owners.get(key);
        if (!first) {
          owners.set(key, ctx);
          continue;
        }
        if (first === ctx || reported.has(first.parsed.source.file)) continue;
        reported.add(first.parsed.source.file);
        out.push(
          error(ctx, 'duplicate-route', '', `Route '/api/{env}/${route}' is already used by ${first.parsed.source.file}`, {
            wholeFile: true,
            hint: 'Routes compare case-insensitively across all endpoint types; rename one endpoint or change its namespace.',
          }),
        );
      }
    }
    return out;
  },
};
