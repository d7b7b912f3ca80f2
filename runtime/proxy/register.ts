/**
 * Runtime wiring. `openUpstreamClient(app, { environmentsDir })` reads `Proxy:*` settings and the
 * network access policy and opens the shared upstream agent (destroyed with the app); Proxy and
 * Composite handlers share that one client (pools, circuit breaker, policy).
 * `registerProxyEndpoints(app, client)` registers the Proxy handler.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadNetworkPolicy } from './network-policy.js';
import { createProxyHandler } from './proxy-handler.js';
import { readProxySettings } from './proxy-settings.js';
import { createUpstreamAgent } from './upstream-agent.js';
import { UpstreamClient } from './upstream-client.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared upstream client (for the health check's checkReachability). */
    wharfUpstream: UpstreamClient;
  }
}

export interface UpstreamClientOptions {
  /** Folder holding network-access-policy.json. Default `environments`. */
  readonly environmentsDir?: string | undefined;
}

export async function openUpstreamClient(app: FastifyInstance, options: UpstreamClientOptions = {}): Promise<UpstreamClient> {
  const settings = readProxySettings(app.wharf.settings.server.source);
  const policy = await loadNetworkPolicy(path.resolve(options.environmentsDir ?? 'environments'));
  const agent = createUpstreamAgent(settings, policy);
  // onClose runs after the server stopped taking requests; destroy() also ends idle keep-alive sockets
  app.addHook('onClose', () => agent.destroy());
  const client = new UpstreamClient(agent, policy, settings);
  app.decorate('wharfUpstream', client);
  return client;
}

export function registerProxyEndpoints(app: FastifyInstance, client: UpstreamClient): void {
  app.wharf.handlers.register('proxy', createProxyHandler(client));
}
