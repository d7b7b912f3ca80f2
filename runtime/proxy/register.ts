/**
 * Runtime wiring of the upstream side. The upstream area reads `Proxy:*` and the network access
 * policy (environments/network-access-policy.json) and opens the shared upstream agent (destroyed
 * with the app); Proxy and Composite handlers and the health check's ProxyEndpoints share that one
 * client (pools, circuit breaker, policy). Failed attempts are reported to the metrics when on.
 * The proxy area registers the Proxy handler on it.
 */
import type { Area } from '../areas/area.js';
import type { HandlerRegistry } from '../handlers/registry.js';
import type { WharfMetrics } from '../metrics/metrics.js';
import { loadNetworkPolicy } from './network-policy.js';
import { createProxyHandler } from './proxy-handler.js';
import { readProxySettings, type ProxySettings } from './proxy-settings.js';
import { createUpstreamAgent } from './upstream-agent.js';
import { UpstreamClient } from './upstream-client.js';

export interface UpstreamAreaSettings {
  readonly proxy: ProxySettings;
  /** Folder holding network-access-policy.json. */
  readonly environmentsDir: string;
}

export const upstreamArea: Area<UpstreamAreaSettings, { readonly metrics: WharfMetrics | null }, UpstreamClient> = {
  name: 'upstream',
  slice: (settings, folders) => ({ proxy: readProxySettings(settings.server.source), environmentsDir: folders.environmentsDir }),
  async register(app, { settings, infra }) {
    const policy = await loadNetworkPolicy(settings.environmentsDir);
    const agent = createUpstreamAgent(settings.proxy, policy);
    // onClose runs after the server stopped taking requests; destroy() also ends idle keep-alive sockets
    app.addHook('onClose', () => agent.destroy());
    const client = new UpstreamClient(agent, policy, settings.proxy);
    const { metrics } = infra;
    if (metrics) client.observe((endpoint, result) => metrics.upstreamFailures(endpoint, result.failures, result.sent));
    return client;
  },
};

export const proxyArea: Area<null, { readonly handlers: HandlerRegistry; readonly upstream: UpstreamClient }> = {
  name: 'proxy',
  slice: () => null,
  register: (_app, { infra }) => infra.handlers.register('proxy', createProxyHandler(infra.upstream)),
};
