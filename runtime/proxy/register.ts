/**
 * One-line wiring for the runtime: `registerProxyEndpoints(app, { environmentsDir })` after
 * buildServer has created `app.wharf`. Reads `Proxy:*` settings and the network access policy,
 * opens the shared upstream agent (closed with the app) and registers the Proxy handler.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadNetworkPolicy } from './network-policy.js';
import { createProxyHandler } from './proxy-handler.js';
import { readProxySettings } from './proxy-settings.js';
import { createUpstreamAgent } from './upstream-agent.js';
import { UpstreamClient } from './upstream-client.js';

export interface RegisterProxyOptions {
  /** Folder holding network-access-policy.json. Default `environments`. */
  readonly environmentsDir?: string | undefined;
}

export async function registerProxyEndpoints(app: FastifyInstance, options: RegisterProxyOptions = {}): Promise<UpstreamClient> {
  const settings = readProxySettings(app.wharf.settings.server.source);
  const policy = await loadNetworkPolicy(path.resolve(options.environmentsDir ?? 'environments'));
  const agent = createUpstreamAgent(settings, policy);
  const client = new UpstreamClient(agent, policy, settings);
  app.wharf.handlers.register('proxy', createProxyHandler(client));
  // onClose runs after the server stopped taking requests; destroy() also ends idle keep-alive sockets
  app.addHook('onClose', () => agent.destroy());
  return client;
}
