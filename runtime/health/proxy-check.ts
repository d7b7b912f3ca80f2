/**
 * ProxyEndpoints: every public (not hidden) Proxy endpoint that allows GET, probed in parallel.
 * data: endpoint route path -> {Status, StatusCode, ReasonPhrase} or {Status, Error}.
 * Any unreachable endpoint makes the check Degraded (spec), never Unhealthy.
 */
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import type { HealthCheck } from './health-check.js';
import type { ProxyProbe } from './proxy-probe.js';

export function proxyCheck(routes: RouteTableHolder, probe: ProxyProbe, timeoutMs: number, skip: boolean): HealthCheck {
  return {
    name: 'ProxyEndpoints',
    tags: ['proxies', 'external', 'readiness'],
    async run() {
      if (skip) return { status: 'Healthy', description: 'Proxy checks are skipped (HEALTHCHECK_SKIP_PROXY)', data: {} };
      const targets = routes.current.endpoints
        .map((endpoint) => endpoint.model)
        .filter((model) => model.kind === 'proxy' && !model.hidden && model.methods.includes('GET'))
        .map((model) => ({ name: model.routePath, url: (model as { url: string }).url }));
      if (targets.length === 0) return { status: 'Healthy', description: 'No public GET proxy endpoints are configured', data: {} };
      const results = await Promise.all(targets.map(async (target) => [target.name, await probe(target.url, timeoutMs)] as const));
      const data: Record<string, unknown> = {};
      let failed = 0;
      for (const [name, result] of results) {
        if (!result.ok) failed += 1;
        data[name] =
          result.statusCode !== undefined
            ? { Status: result.ok ? 'Healthy' : 'Unhealthy', StatusCode: result.statusCode, ReasonPhrase: result.reasonPhrase ?? '' }
            : { Status: 'Unhealthy', Error: result.error ?? 'unreachable' };
      }
      if (failed === 0) return { status: 'Healthy', description: `All ${targets.length} proxy endpoints are reachable`, data };
      return { status: 'Degraded', description: `${failed} of ${targets.length} proxy endpoints are unreachable`, data };
    },
  };
}
