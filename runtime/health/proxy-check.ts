/**
 * ProxyEndpoints: every public (not hidden) Proxy endpoint that allows GET, probed in parallel
 * through the shared upstream client (proxy/reachability.ts: the network access policy applies; a
 * blocked target is reported, never called).
 * data: endpoint route path -> {Status, StatusCode, ReasonPhrase} or {Status, Error}.
 * Any unreachable endpoint makes the check Degraded (spec), never Unhealthy.
 */
import type { ProxyEndpoint } from '../contract/model.js';
import { checkReachability } from '../proxy/reachability.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import type { HealthCheck } from './health-check.js';

export function proxyCheck(routes: RouteTableHolder, client: UpstreamClient, timeoutMs: number, skip: boolean): HealthCheck {
  return {
    name: 'ProxyEndpoints',
    tags: ['proxies', 'external', 'readiness'],
    async run() {
      if (skip) return { status: 'Healthy', description: 'Proxy checks are skipped (HEALTHCHECK_SKIP_PROXY)', data: {} };
      const targets = routes.current.endpoints
        .map((endpoint) => endpoint.model)
        .filter((model): model is ProxyEndpoint => model.kind === 'proxy' && !model.hidden && model.methods.includes('GET'));
      if (targets.length === 0) return { status: 'Healthy', description: 'No public GET proxy endpoints are configured', data: {} };
      const results = await Promise.all(targets.map(async (target) => [target.routePath, await checkReachability(client, target, { timeoutMs })] as const));
      const data: Record<string, unknown> = {};
      let failed = 0;
      for (const [name, result] of results) {
        if (!result.reachable) failed += 1;
        data[name] =
          result.status !== null
            ? { Status: result.reachable ? 'Healthy' : 'Unhealthy', StatusCode: result.status, ReasonPhrase: result.reasonPhrase ?? '' }
            : { Status: 'Unhealthy', Error: result.error ?? 'unreachable' };
      }
      if (failed === 0) return { status: 'Healthy', description: `All ${targets.length} proxy endpoints are reachable`, data };
      return { status: 'Degraded', description: `${failed} of ${targets.length} proxy endpoints are unreachable`, data };
    },
  };
}
