/** Resolution of `{namespace}/{endpoint}` or `{endpoint}` references between entities. */
import type { EndpointKind } from '../../runtime/contract/index.js';
import type { EntityContext } from '../stages.js';

/** Route matching is case-insensitive, like URLs (spec: Namespaces rule 2). */
export function routeKey(route: string): string {
  return route.replace(/^\/+|\/+$/g, '').toLowerCase();
}

/** Every entity whose route path is `ref` (case-insensitive), optionally of given kinds. */
export function findByRoute(
  contexts: readonly EntityContext[],
  ref: string,
  kinds?: readonly EndpointKind[],
): EntityContext[] {
  const key = routeKey(ref);
  return contexts.filter((c) => routeKey(c.routePath) === key && (!kinds || kinds.includes(c.kind)));
}

export function endpointId(ctx: Pick<EntityContext, 'kind' | 'routePath'>): string {
  return `${ctx.kind}:${ctx.routePath}`;
}
