/**
 * GET /metrics: the Prometheus text format, for a bearer token whose scopes are `*` (401 without a
 * valid token, 403 for a narrower one). Metrics:Enabled false removes the route (404).
 */
import type { FastifyInstance } from 'fastify';
import type { AccessRuntime } from '../auth/access-runtime.js';
import { authenticate } from '../auth/authorize.js';
import { WharfError } from '../errors/wharf-error.js';
import type { WharfMetrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

export function metricsRoute(app: FastifyInstance, metrics: WharfMetrics, access: Pick<AccessRuntime, 'tokens' | 'jwt'>): void {
  app.get(METRICS_PATH, async (request, reply) => {
    const principal = await authenticate(request.headers.authorization, access.tokens, access.jwt);
    if (!principal.scopes.all) throw new WharfError('AUTH_SCOPE_DENIED', { method: 'GET', endpoint: METRICS_PATH });
    reply.header('content-type', metrics.registry.contentType);
    reply.header('cache-control', 'no-store');
    return metrics.registry.metrics();
  });
}
