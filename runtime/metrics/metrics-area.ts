/**
 * The metrics area (Metrics:*): with Metrics:Enabled, the counting hook, GET /metrics (token with
 * scope `*`) and, with Metrics:ListenAddress, the second listener startServer opens. Returns the
 * metrics (null when disabled): the upstream client reports its failures to them and the console
 * draws their traffic history.
 */
import type { Area } from '../areas/area.js';
import type { AccessRuntime } from '../auth/access-runtime.js';
import type { ServerSettings } from '../settings/server-settings.js';
import { installMetrics, type MetricsSources, type WharfMetrics } from './metrics.js';
import { MetricsListener, parseMetricsAddress } from './metrics-listener.js';
import { metricsRoute } from './metrics-route.js';

export interface MetricsInfra extends MetricsSources {
  /** /metrics on the main port checks the bearer token with these. */
  readonly access: Pick<AccessRuntime, 'tokens' | 'jwt'>;
}

export const metricsArea: Area<ServerSettings['metrics'], MetricsInfra, WharfMetrics | null> = {
  name: 'metrics',
  slice: (settings) => settings.server.metrics,
  register(app, { settings, infra }) {
    const address = settings.enabled ? parseMetricsAddress(settings.listenAddress) : null;
    const metrics = settings.enabled ? installMetrics(app, infra) : null;
    if (metrics) metricsRoute(app, metrics, infra.access);
    // startServer opens it once the main port listens (runtime/start.ts)
    app.decorate('metricsListener', metrics && address ? new MetricsListener(app, metrics, address) : null);
    return metrics;
  },
};
