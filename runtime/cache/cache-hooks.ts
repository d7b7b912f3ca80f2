/**
 * Fastify wiring of the response cache and ETags.
 *  - cacheStage(request, reply, context): called by the pipeline after authorization, right before
 *    the handler. A hit is answered here (returns true: stop); a miss is remembered for onSend;
 *    a write is remembered for invalidation. Sets `X-Cache: HIT|MISS` on cacheable reads.
 *  - installResponseCache(app, ...): the onSend hook that stores misses, invalidates after
 *    successful writes (BEFORE the response leaves, so read-after-write sees fresh data on every
 *    instance), and gives every GET/HEAD 200 a strong ETag, answering a matching If-None-Match
 *    with 304; an answer of an endpoint with Authorization rules gets `Cache-Control: private`
 *    (personal-answer.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiUrl } from '../auth/access-hooks.js';
import { etagOf, ifNoneMatchHits } from './etag.js';
import { personalCacheControl } from './personal-answer.js';
import { WRITE_METHODS } from './response-cache.js';
import type { CacheableEndpoint, PendingRead, ResponseCache } from './response-cache.js';

type CacheState =
  | { readonly kind: 'read'; readonly pending: PendingRead | null; readonly hit: boolean }
  | { readonly kind: 'write'; readonly endpoint: CacheableEndpoint };

declare module 'fastify' {
  interface FastifyRequest {
    wharfCache: CacheState | null;
  }
}

export interface CacheStageContext {
  readonly env: string;
  readonly endpoint: CacheableEndpoint;
  /** QUERY body as its reader takes it (part of the key): parsed, or a Proxy's text as sent. */
  readonly body?: unknown;
  /** sourceHash of the route table (part of the key). */
  readonly build?: string;
}

function splitUrl(url: string): { path: string; query: string } {
  const index = url.indexOf('?');
  return index < 0 ? { path: url, query: '' } : { path: url.slice(0, index), query: url.slice(index + 1) };
}

/** true when the request was answered from the cache; synchronous when the store is not involved. */
export function cacheStage(
  cache: ResponseCache,
  request: FastifyRequest,
  reply: FastifyReply,
  context: CacheStageContext,
): boolean | Promise<boolean> {
  const method = request.method.toUpperCase();
  if (WRITE_METHODS.includes(method)) {
    request.wharfCache = { kind: 'write', endpoint: context.endpoint };
    return false;
  }
  if (!cache.isCacheableRead(method, context.endpoint)) return false;
  return readThrough(cache, request, reply, context, method);
}

async function readThrough(
  cache: ResponseCache,
  request: FastifyRequest,
  reply: FastifyReply,
  context: CacheStageContext,
  method: string,
): Promise<boolean> {
  const { path, query } = splitUrl(request.url);
  const result = await cache.read(context.endpoint, {
    env: context.env,
    method,
    path,
    query,
    body: method === 'QUERY' ? context.body : undefined,
    accept: request.headers.accept,
    // forwarded upstream: an answer per origin (`Vary: Origin`) cannot be told from the gateway's own CORS Vary
    ...(context.endpoint.kind === 'proxy' ? { origin: request.headers.origin } : {}),
    ...(context.build !== undefined ? { build: context.build } : {}),
  });
  if (!result) return false;
  if (!result.hit) {
    request.wharfCache = { kind: 'read', pending: result.pending, hit: false };
    reply.header('x-cache', 'MISS');
    return false;
  }
  request.wharfCache = { kind: 'read', pending: null, hit: true };
  reply.code(result.hit.status);
  reply.headers(result.hit.headers);
  reply.header('etag', result.hit.etag);
  reply.header('x-cache', 'HIT');
  await reply.send(result.hit.body);
  return true;
}

export interface ResponseCacheHookOptions {
  readonly cache: ResponseCache;
  /** URLs that get ETags. Default: `/api` and below. */
  readonly appliesTo?: (url: string) => boolean;
}

/** ETag (and a 304 for a matching If-None-Match) of a GET/HEAD 200; returns the payload to send. */
function withEtag(request: FastifyRequest, reply: FastifyReply, payload: string | Buffer, etag: string | undefined): string | Buffer {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return payload;
  const tag = etag ?? etagOf(payload);
  reply.header('etag', tag);
  if (ifNoneMatchHits(request.headers['if-none-match'], tag)) {
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return '';
  }
  return payload;
}

export function installResponseCache(app: FastifyInstance, options: ResponseCacheHookOptions): void {
  const appliesTo = options.appliesTo ?? isApiUrl;
  if (!app.hasRequestDecorator('wharfCache')) app.decorateRequest('wharfCache', null);
  // callback style: synchronous unless the cache store is involved (a write, or storing a miss)
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.wharfRule) reply.header('cache-control', personalCacheControl(reply.getHeader('cache-control')));
    const state = request.wharfCache;
    if (state?.kind === 'write') {
      if (reply.statusCode >= 400) return done(null, payload);
      options.cache.invalidate(state.endpoint).then(() => done(null, payload), done);
      return;
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload); // streams: no ETag, no cache
    if (reply.statusCode !== 200 || !appliesTo(request.url)) return done(null, payload);
    const etag = reply.getHeader('etag') as string | undefined;
    if (state?.kind === 'read' && state.pending) {
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      options.cache.write(state.pending, reply.statusCode, reply.getHeaders(), body, etag).then(
        (stored) => done(null, withEtag(request, reply, payload, etag ?? stored?.etag)),
        done,
      );
      return;
    }
    done(null, withEtag(request, reply, payload, etag));
  });
}
