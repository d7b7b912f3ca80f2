/**
 * The undici Agent all Proxy and Composite calls share: one keep-alive pool per upstream origin
 * (at most `maxConnectionsPerOrigin` connections; further requests queue), explicit connect,
 * headers and body timeouts, and a DNS lookup that refuses addresses the network policy blocks.
 * The lookup runs for every new connection, so a host name that starts resolving to a blocked
 * address is refused from then on; literal addresses are checked before each attempt
 * (NetworkPolicy.urlBlocked) because the socket layer does not look them up.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Agent, Dispatcher } from 'undici';
import type { NetworkPolicy } from './network-policy.js';
import type { ProxySettings } from './proxy-settings.js';
import { loadUndiciInternals, smallFirstRequest } from './small-first-request.js';

/** Error code of a connection refused by the network policy. */
export const BLOCKED_CODE = 'WHARF_TARGET_BLOCKED';

export class BlockedAddressError extends Error {
  readonly code = BLOCKED_CODE;
  constructor(readonly hostname: string, readonly address: string) {
    super(`${hostname} resolved to ${address}, which the network access policy blocks`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function guardedLookup(policy: NetworkPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const blocked = addresses.find((entry) => policy.addressBlocked(entry.address));
      if (blocked) return callback(new BlockedAddressError(hostname, blocked.address) as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * What the proxy needs of the agent. undici is imported on the first upstream request, not at
 * start: a gateway without Proxy or Composite endpoints never loads it (a faster cold start).
 */
export interface UpstreamAgent {
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  destroy(): Promise<void>;
}

export function createUpstreamAgent(settings: ProxySettings, policy: NetworkPolicy): UpstreamAgent {
  let agent: Promise<Agent> | null = null;
  let internals: Awaited<ReturnType<typeof loadUndiciInternals>> | null = null;
  const open = async (): Promise<Agent> => {
    const [{ Agent }, loaded] = await Promise.all([import('undici'), loadUndiciInternals()]);
    internals = loaded;
    return new Agent({
      connections: settings.maxConnectionsPerOrigin,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      headersTimeout: settings.headersTimeoutMs,
      bodyTimeout: settings.bodyTimeoutMs,
      connect: { timeout: settings.connectTimeoutMs, lookup: guardedLookup(policy) },
    });
  };
  // once open, requests go straight to the agent (no `.then` hop per request)
  let ready: Agent | null = null;
  return {
    // small-first-request.ts: undici's request() with a cheaper body for a small response
    request: (options) => {
      if (ready !== null) return smallFirstRequest(ready, internals!, options);
      agent ??= open().then((a) => (ready = a));
      return agent.then((a) => smallFirstRequest(a, internals!, options));
    },
    destroy: async () => {
      if (agent) await (await agent).destroy();
    },
  };
}
