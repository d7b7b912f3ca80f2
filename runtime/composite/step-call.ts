/**
 * One upstream call of a step, through the same UpstreamClient as Proxy requests (the referenced
 * endpoint's Url, FallbackUrls, Retry, method rules, network policy and circuit breaker; no HTTP
 * loop back into the gateway). The body is read whole (JSON when it parses, else text).
 */
import type { ProxyEndpoint } from '../contract/model.js';
import { failureCode } from '../proxy/failover.js';
import type { AttemptFailure } from '../proxy/failover.js';
import type { UpstreamClient, UpstreamRequest } from '../proxy/upstream-client.js';

export type StepCallResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      /** Status for the client: the upstream's 4xx, else 502 (504 timeout, 403 blocked). */
      readonly status: number;
      readonly upstreamStatus: number | null;
      readonly failures: readonly AttemptFailure[];
      readonly upstreamBody?: string;
    };

const FAILURE_STATUS = { PROXY_TARGET_BLOCKED: 403, PROXY_UPSTREAM_TIMEOUT: 504, PROXY_UPSTREAM_UNAVAILABLE: 502 } as const;

export type StepRequestBase = Omit<UpstreamRequest, 'method' | 'body' | 'target' | 'query' | 'clientHeaders'>;

const BODYLESS = new Set(['GET', 'HEAD', 'DELETE']);

export async function callStep(
  client: UpstreamClient,
  endpoint: ProxyEndpoint,
  method: string,
  item: unknown,
  base: StepRequestBase,
): Promise<StepCallResult> {
  const body = BODYLESS.has(method) || item === undefined ? undefined : JSON.stringify(item);
  const result = await client.exchange(endpoint, {
    ...base,
    method,
    target: { kind: 'collection' },
    query: '',
    clientHeaders: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body,
  });
  if (!result.ok) {
    return { ok: false, status: FAILURE_STATUS[failureCode(result.failures)], upstreamStatus: null, failures: result.failures };
  }
  const text = await result.response.body.text();
  const status = result.response.statusCode;
  if (status >= 400) {
    return { ok: false, status: status < 500 ? status : 502, upstreamStatus: status, failures: result.failures, upstreamBody: text.slice(0, 2000) };
  }
  if (text === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: true, value: text };
  }
}
