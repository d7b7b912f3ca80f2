/**
 * One exchange with a Proxy endpoint's upstream, shared by Proxy requests and Composite steps:
 * method rules, target URLs (Url then FallbackUrls), upstream headers, and the retry/failover loop
 * over the shared keep-alive agent with the network policy and circuit breaker in the path.
 * The execute stage of the proxy pipeline: the only place that talks to an upstream.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { ProxyEndpoint } from '../contract/model.js';
import type { RouteTarget } from '../routing/route-table.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { withFailover } from './failover.js';
import type { FailoverResult } from './failover.js';
import { appendMethodHeaders, upstreamMethod } from './method-rules.js';
import type { NetworkPolicy } from './network-policy.js';
import type { ProxySettings } from './proxy-settings.js';
import { upstreamRequestHeaders } from './request-headers.js';
import type { UpstreamAgent } from './upstream-agent.js';
import { partsOf, targetUrl } from './target-url.js';
import { hasTransforms } from '../transforms/response-transforms.js';

export interface UpstreamRequest {
  /** The method the client sent (HEAD stays HEAD). */
  readonly method: string;
  readonly target: RouteTarget;
  /** Raw query string without `?`. */
  readonly query: string;
  readonly clientHeaders: IncomingHttpHeaders;
  readonly body: string | Buffer | undefined;
  readonly clientIp: string;
  readonly proto: 'http' | 'https';
  readonly requestId: string;
  readonly environmentHeaders: Readonly<Record<string, string>>;
  /** ForwardClaims of the request's Authorization rule (claim-headers.ts). */
  readonly claimHeaders?: Readonly<Record<string, string | null>>;
  readonly signal?: AbortSignal | undefined;
}

const BODYLESS = new Set(['GET', 'HEAD']);

/** Told of every exchange that needed more than one attempt or failed (metrics count it). */
export type ExchangeObserver = (endpointId: string, result: FailoverResult) => void;

export class UpstreamClient {
  readonly breaker: CircuitBreaker;
  #observers: ExchangeObserver[] = [];

  /** Proxy:PublicBaseUrl as a URL (X-Forwarded-Host/-Proto come from it), null when not set. */
  readonly #publicBase: URL | null;

  constructor(
    readonly agent: UpstreamAgent,
    readonly policy: NetworkPolicy,
    readonly settings: ProxySettings,
  ) {
    this.breaker = new CircuitBreaker(settings.circuitFailureThreshold, settings.circuitOpenMs);
    this.#publicBase = settings.publicBaseUrl === '' ? null : new URL(settings.publicBaseUrl);
  }

  observe(observer: ExchangeObserver): void {
    this.#observers.push(observer);
  }

  /** Not an async function: one `.then` on the attempts (no suspended frame per request). */
  exchange(endpoint: ProxyEndpoint, request: UpstreamRequest): Promise<FailoverResult> {
    let attempts: Promise<FailoverResult>;
    try {
      attempts = this.#exchange(endpoint, request);
    } catch (error) {
      return Promise.reject(error); // a bad target URL is a rejection, as from an async function
    }
    return attempts.then((result) => {
      if (result.failures.length > 0) for (const observer of this.#observers) observer(endpoint.id, result);
      return result;
    });
  }

  #exchange(endpoint: ProxyEndpoint, request: UpstreamRequest): Promise<FailoverResult> {
    const method = upstreamMethod(request.method, endpoint.methodTranslation);
    const body = BODYLESS.has(method) || request.body === undefined || request.body.length === 0 ? undefined : request.body;
    const headers = upstreamRequestHeaders(request.clientHeaders, {
      clientIp: request.clientIp,
      proto: this.#publicBase ? (this.#publicBase.protocol === 'https:' ? 'https' : 'http') : request.proto,
      publicHost: this.#publicBase?.host ?? null,
      requestId: request.requestId,
      contentType: endpoint.contentType,
      environmentHeaders: request.environmentHeaders,
      hasBody: body !== undefined,
      forwardCookies: endpoint.forwardCookies,
      ...(request.claimHeaders ? { claimHeaders: request.claimHeaders } : {}),
    });
    // Wharf may read the body (URL rewriting, transforms, cache): ask for it uncompressed; with
    // ResponseTransforms, as JSON whatever the client asked for (proxy-response.ts refuses the rest).
    headers['accept-encoding'] = 'identity';
    if (hasTransforms(endpoint.responseTransforms)) headers['accept'] = 'application/json';
    appendMethodHeaders(headers, request.method, endpoint.appendHeaders);
    const targetRequest = { method: request.method, target: request.target, query: request.query, deletePatterns: endpoint.deletePatterns };
    const urls = [targetUrl(endpoint.url, targetRequest)];
    for (const base of endpoint.fallbackUrls) urls.push(targetUrl(base, targetRequest));
    const size = body === undefined ? 0 : Buffer.byteLength(body);
    const timeoutMs = endpoint.timeoutMs;
    return withFailover(
      {
        circuit: endpoint.id,
        urls,
        attempts: endpoint.retry.attempts,
        delayMs: endpoint.retry.delayMs,
        replayable: size <= this.settings.replayBodyLimitBytes,
      },
      (url) => {
        const { origin, path } = partsOf(url);
        const options: Dispatcher.RequestOptions = { origin, path, method: method as 'GET', headers, body, signal: request.signal };
        if (timeoutMs !== null) {
          options.headersTimeout = timeoutMs;
          options.bodyTimeout = timeoutMs;
        }
        return this.agent.request(options);
      },
      { breaker: this.breaker, policy: this.policy, signal: request.signal },
    );
  }
}
