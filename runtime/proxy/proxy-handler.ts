/**
 * The Proxy endpoint handler: request facts -> UpstreamClient.exchange (retries, failover, policy)
 * -> the upstream response streamed back (proxy-response.ts). When every attempt failed: 502, 504
 * or 403 with a traceId; which URL failed how is logged under the same id, never sent.
 */
import { claimHeaders } from './claim-headers.js';
import type { FastifyRequest } from 'fastify';
import type { EndpointKind } from '../contract/index.js';
import type { EndpointHandler, HandlerContext } from '../handlers/handler-context.js';
import { WharfError } from '../errors/wharf-error.js';
import { failureCode } from './failover.js';
import type { FailoverResult } from './failover.js';
import { sendUpstreamResponse } from './proxy-response.js';
import { ClientGone } from './client-gone.js';
import type { UpstreamClient, UpstreamRequest } from './upstream-client.js';
import { cachedRewritesFor } from './url-rewrite.js';
import type { UrlRewrite } from './url-rewrite.js';
import type { ProxyEndpoint } from '../contract/model.js';

const NO_REWRITES: readonly UrlRewrite[] = [];

const bases = new WeakMap<ProxyEndpoint, readonly string[]>();

/** [Url, ...FallbackUrls], one array per loaded endpoint (the key of the rewrite memo). */
function upstreamBasesOf(endpoint: ProxyEndpoint): readonly string[] {
  let list = bases.get(endpoint);
  if (!list) bases.set(endpoint, (list = [endpoint.url, ...endpoint.fallbackUrls]));
  return list;
}

/** The rewrites of an endpoint's last (public base, environment): one per endpoint, the same pair on almost every request. */
const lastRewrites = new WeakMap<ProxyEndpoint, { readonly publicBase: string; readonly env: string; readonly rewrites: readonly UrlRewrite[] }>();

/**
 * The endpoint's URL rewrites in this environment. Proxy:PublicBaseUrl or relative, never the
 * client's Host: the body may be cached for everyone. The gateway base is not concatenated (and
 * hashed for the memo) on every request.
 */
export function rewritesOf(endpoint: ProxyEndpoint, publicBase: string, env: string): readonly UrlRewrite[] {
  const last = lastRewrites.get(endpoint);
  if (last !== undefined && last.publicBase === publicBase && last.env === env) return last.rewrites;
  const rewrites = cachedRewritesFor(upstreamBasesOf(endpoint), `${publicBase}/api/${env}/${endpoint.routePath}`);
  lastRewrites.set(endpoint, { publicBase, env, rewrites });
  return rewrites;
}

function queryOf(url: string): string {
  const index = url.indexOf('?');
  return index < 0 ? '' : url.slice(index + 1);
}

function bodyOf(request: FastifyRequest): string | Buffer | undefined {
  if (request.wharfRawBody !== null) return request.wharfRawBody;
  return Buffer.isBuffer(request.body) ? request.body : undefined;
}

/** A signal that fires when the client goes away before the response is complete (client-gone.ts). */
export function clientGone<K extends EndpointKind>(ctx: HandlerContext<K>): AbortSignal {
  return ClientGone.of(ctx.reply.raw).signal;
}

export function upstreamRequestOf<K extends EndpointKind>(ctx: HandlerContext<K>, signal?: AbortSignal): UpstreamRequest {
  const request = ctx.request;
  return {
    method: ctx.method,
    target: ctx.target,
    query: queryOf(request.url),
    clientHeaders: request.headers,
    body: bodyOf(request),
    clientIp: request.wharfAccess?.client.ip ?? request.ip,
    proto: request.protocol === 'https' ? 'https' : 'http',
    requestId: String(request.id),
    environmentHeaders: ctx.environment.headers,
    claimHeaders: claimHeaders(request.wharfRule ?? null, request.wharfAccess?.principal?.claims ?? {}),
    signal,
  };
}

export function logFailures<K extends EndpointKind>(ctx: HandlerContext<K>, endpointId: string, result: FailoverResult): void {
  if (result.failures.length === 0) return;
  const level = result.ok ? 'info' : 'warn';
  ctx.request.log[level](
    { event: 'proxy.attempts_failed', traceId: String(ctx.request.id), endpoint: endpointId, failures: result.failures },
    result.ok ? 'upstream attempts failed before one succeeded' : 'every upstream attempt failed',
  );
}

export function createProxyHandler(client: UpstreamClient): EndpointHandler<'proxy'> {
  // not an async function: the exchange and the response are two `.then`s, no suspended frame per request
  return (ctx) => {
    const endpoint = ctx.endpoint.model;
    const signal = clientGone(ctx);
    const timing = ctx.timing;
    timing.start('upstream');
    return client.exchange(endpoint, upstreamRequestOf(ctx, signal)).then(
      (result) => {
        timing.end('upstream');
        return answer(ctx, client, result);
      },
      (error: unknown) => {
        timing.end('upstream');
        throw error;
      },
    );
  };
}

/** The reply once sent, or a promise of it (sendUpstreamResponse). */
function answer(ctx: HandlerContext<'proxy'>, client: UpstreamClient, result: FailoverResult): unknown {
  const endpoint = ctx.endpoint.model;
  logFailures(ctx, endpoint.id, result);
  if (!result.ok) throw new WharfError(failureCode(result.failures));
  const request = ctx.request;
  return sendUpstreamResponse(ctx.reply, result.response, {
    endpoint,
    rewrites: endpoint.rewriteUrls ? rewritesOf(endpoint, client.settings.publicBaseUrl, ctx.environment.name) : NO_REWRITES,
    buffer: request.wharfCache?.kind === 'read' && request.wharfCache.pending !== null,
    head: ctx.method === 'HEAD',
    bufferLimitBytes: client.settings.bufferLimitBytes,
  });
}
