/**
 * The one reachability probe of a Proxy endpoint (the health check's ProxyEndpoints): one GET to
 * its `Url` through the shared UpstreamClient's agent, so the network access policy applies as it
 * does to Proxy requests (a blocked host or literal address is never called; a host name that
 * resolves to a blocked address is refused at connect time). No retries, no fallbacks, no circuit
 * breaker; bounded by `timeoutMs`. Reachable (spec 2): 2xx, 3xx, and 401 (up, it only wants
 * credentials); any other answer is unreachable. The body is discarded.
 * Usage: `checkReachability(upstream, endpoint, { timeoutMs: settings.proxyTimeoutMs })` with the upstream area's client.
 */
import { STATUS_CODES } from 'node:http';
import type { ProxyEndpoint } from '../contract/model.js';
import { classifyError } from './failover.js';
import type { UpstreamClient } from './upstream-client.js';

export interface Reachability {
  readonly reachable: boolean;
  /** Upstream status, null when no response arrived. */
  readonly status: number | null;
  /** The status's reason phrase ('' when Node knows none); null when no response arrived. */
  readonly reasonPhrase: string | null;
  /** 'blocked', 'timeout' or 'connection' when no response arrived. */
  readonly failure: 'blocked' | 'timeout' | 'connection' | null;
  /** Why no response arrived, for the health report: an error code such as ECONNREFUSED, or a sentence. */
  readonly error: string | null;
}

export const BLOCKED_MESSAGE = 'Blocked by the network access policy';

function answered(status: number): Reachability {
  const reachable = (status >= 200 && status < 400) || status === 401;
  return { reachable, status, reasonPhrase: STATUS_CODES[status] ?? '', failure: null, error: null };
}

function failed(failure: 'blocked' | 'timeout' | 'connection', error: string): Reachability {
  return { reachable: false, status: null, reasonPhrase: null, failure, error };
}

function errorCodeOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return (error as Error).message;
}

export async function checkReachability(client: UpstreamClient, endpoint: ProxyEndpoint, options: { timeoutMs: number }): Promise<Reachability> {
  const url = new URL(endpoint.url);
  if (client.policy.urlBlocked(url)) return failed('blocked', BLOCKED_MESSAGE);
  try {
    const response = await client.agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'GET',
      headers: { accept: endpoint.contentType, 'user-agent': 'wharf-health' },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await response.body.dump().catch(() => undefined);
    return answered(response.statusCode);
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return failed('timeout', `No answer within ${options.timeoutMs} ms`);
    const kind = classifyError(error);
    if (kind === 'blocked') return failed('blocked', BLOCKED_MESSAGE);
    if (kind === 'timeout') return failed('timeout', `No answer within ${options.timeoutMs} ms`);
    return failed('connection', errorCodeOf(error));
  }
}
