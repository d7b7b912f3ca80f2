/**
 * The access and cache steps as stages of the /api pipeline (runtime/pipeline/stages.ts):
 *   authorizeStage()        after endpointEnvironmentStage, before enabledStage (403s)
 *   cacheStage(cache)       after bodyStage, right before handlerStage (HIT answers and stops)
 *   withAccessStages(API_STAGES, cache) inserts both.
 * Admission (401, 429) runs earlier, in the onRequest hook of installAccessControl.
 * Refusals are WharfErrors thrown into the central error handler, like every other stage's.
 */
import { cacheStage as runCacheStage } from '../cache/cache-hooks.js';
import type { ResponseCache } from '../cache/response-cache.js';
import { upstreamCookie } from '../proxy/proxy-cookies.js';
import { STOP, needMatch } from '../pipeline/api-request.js';
import type { PipelineStage } from '../pipeline/api-request.js';
import { endpointEnvironmentStage, handlerStage } from '../pipeline/stages.js';
import { authorize } from './authorize.js';

export function authorizeStage(): PipelineStage {
  return {
    name: 'authorize',
    run(state) {
      const principal = state.request.wharfAccess?.principal;
      if (!principal) {
        throw new Error('Pipeline stage order: authorize runs without an admitted principal (installAccessControl missing?)');
      }
      state.request.wharfRule = authorize(principal, { env: state.envSegment ?? '', method: state.method, endpoint: needMatch(state).endpoint.model });
    },
  };
}

export function cacheStage(cache: ResponseCache): PipelineStage {
  return {
    name: 'cache',
    run(state) {
      const endpoint = needMatch(state).endpoint.model;
      // answers of an endpoint with Authorization rules depend on the caller's claims: never cached
      if (endpoint.authorization !== undefined) return undefined;
      // nor those of a Proxy whose upstream receives the caller's cookies (its session: most
      // upstreams say nothing of it in Vary), neither looked up nor stored
      if (endpoint.kind === 'proxy' && upstreamCookie(state.request.headers.cookie, endpoint.forwardCookies) !== undefined) return undefined;
      const answered = runCacheStage(cache, state.request, state.reply, {
        env: state.envSegment ?? '',
        endpoint,
        // a Proxy forwards the body text as sent, which its upstream may read otherwise than JSON.parse does
        body: endpoint.kind === 'proxy' ? (state.request.wharfRawBody ?? state.request.body) : state.request.body,
        build: state.routes.sourceHash,
      });
      // synchronous when the store is not involved (caching off, not a cacheable read)
      if (typeof answered === 'boolean') return answered ? STOP : undefined;
      return answered.then((hit) => (hit ? STOP : undefined));
    },
  };
}

/** `stages` (default API_STAGES) with authorize after the endpoint-environment check and the cache before the handler. */
export function withAccessStages(stages: readonly PipelineStage[], cache: ResponseCache): PipelineStage[] {
  const out: PipelineStage[] = [];
  for (const stage of stages) {
    if (stage === handlerStage) out.push(cacheStage(cache));
    out.push(stage);
    if (stage === endpointEnvironmentStage) out.push(authorizeStage());
  }
  return out;
}
