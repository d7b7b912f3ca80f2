/**
 * Per-endpoint reachability for the health check: one GET to the Proxy's `Url` (no retries, no
 * fallbacks, the network policy applies), bounded by `timeoutMs`. Reachable = the upstream answered
 * with any status below 500 (401/404 still prove the service is up, as in Portway's check).
 * Usage: `checkReachability(app.wharfUpstream, endpoint, { timeoutMs: settings.healthChecks.proxyTimeoutMs })`.
 */
import type { ProxyEndpoint } from '../contract/model.js';
import { classifyError } from './failover.js';
import type { UpstreamClient } from './upstream-client.js';

export interface Reachability {
  readonly endpointId: string;
  readonly reachable: boolean;
  /** Upstream status, null when no response arrived. */
  readonly status: number | null;
  readonly latencyMs: number;
  /** 'blocked', 'timeout' or 'connection' when no response arrived. */
  readonly failure: string | null;
}

export async function checkReachability(client: UpstreamClient, endpoint: ProxyEndpoint, options: { timeoutMs: number }): Promise<Reachability> {
  const started = performance.now();
  const done = (status: number | null, failure: string | null): Reachability => ({
    endpointId: endpoint.id,
    reachable: status !== null && status < 500,
    status,
    latencyMs: Math.round(performance.now() - started),
    failure,
  });
  const url = new URL(endpoint.url);
  if (client.policy.urlBlocked(url)) return done(null, 'blocked');
  try {
    const response = await client.agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'GET',
      headers: { accept: endpoint.contentType, 'user-agent': 'wharf-health' },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await response.body.dump().catch(() => undefined);
    return done(response.statusCode, null);
  } catch (error) {
    const name = (error as Error).name;
    return done(null, name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : classifyError(error));
  }
}
