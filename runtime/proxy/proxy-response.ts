/**
 * Sends an upstream response to the client. Streams it (backpressure preserved, nothing buffered)
 * unless the body must be read whole: ResponseTransforms, or a cacheable read the response cache
 * is filling (it stores strings/Buffers only). Nothing is read beyond `Proxy:BufferLimitBytes`: a
 * body to transform that is larger answers 502 PROXY_RESPONSE_TOO_LARGE; a body for the cache that
 * is larger streams on (the bytes read so far first) and is not stored.
 * JSON/XML bodies get their absolute upstream URLs rewritten to the gateway route; so does a
 * `Location` header.
 *
 * ResponseTransforms fail closed (response-inspection.ts): the upstream was asked for JSON; a body
 * that cannot be transformed is refused with 502 rather than passed with its fields intact.
 */
import { pipeline, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Dispatcher } from 'undici';
import type { ProxyEndpoint } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';
import { classifyError } from './failover.js';
import { downstreamResponseHeaders } from './request-headers.js';
import { inspectedBody, isJson, mustInspect } from './response-inspection.js';
import { containsAny, isRewritable, rewriteText, urlRewriteStream } from './url-rewrite.js';
import type { UrlRewrite } from './url-rewrite.js';
// bodies announced at most SMALL_BODY_BYTES long are read whole and sent with a Content-Length (fewer writes than a stream)
import { completeBody, SMALL_BODY_BYTES } from './small-first-request.js';


export interface ResponseOptions {
  readonly endpoint: ProxyEndpoint;
  readonly rewrites: readonly UrlRewrite[];
  /** The response cache is waiting for this body. */
  readonly buffer: boolean;
  readonly head: boolean;
  /** Proxy:BufferLimitBytes: the most read into memory. */
  readonly bufferLimitBytes: number;
}

/** The first value of a header that may arrive several times. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

type BodyRead =
  | { readonly complete: true; readonly bytes: Buffer }
  /** Over the limit: the chunks read so far, and the rest still to come. */
  | { readonly complete: false; readonly head: Buffer[]; readonly rest: AsyncIterator<Buffer> };

/**
 * The body, read until it ends or passes `limit`; an upstream that breaks it off becomes a 502
 * (504 on a body timeout) before anything is sent.
 */
async function readBody(response: Dispatcher.ResponseData, limit: number): Promise<BodyRead> {
  const iterator = (response.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      chunks.push(next.value);
      size += next.value.length;
      if (size > limit) return { complete: false, head: chunks, rest: iterator };
    }
  } catch (error) {
    throw upstreamBroke(error);
  }
  return { complete: true, bytes: Buffer.concat(chunks, size) };
}

function upstreamBroke(error: unknown): WharfError {
  const timeout = classifyError(error) === 'timeout';
  return new WharfError(timeout ? 'PROXY_UPSTREAM_TIMEOUT' : 'PROXY_UPSTREAM_UNAVAILABLE', undefined, { cause: error });
}

/**
 * readBody() for a body whose Content-Length is within the limit (undici refuses a body longer than
 * it announced): read in one go, without an async iterator and its promises per chunk; a small body
 * that already arrived with its headers (small-first-request.ts) is taken at once, without a promise.
 */
function readAnnounced(response: Dispatcher.ResponseData, then: (read: BodyRead) => Reply): Reply {
  const whole = completeBody(response.body);
  if (whole !== null) return then({ complete: true, bytes: whole });
  return response.body.bytes().then(
    (bytes) => then({ complete: true, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }),
    (error: unknown) => {
      throw upstreamBroke(error);
    },
  );
}

/** The chunks already read, then the rest of the upstream body (ended with the client's stream). */
async function* resumed(head: readonly Buffer[], rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  try {
    yield* head;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.();
  }
}

function refuse(response: Dispatcher.ResponseData, code: 'PROXY_RESPONSE_TOO_LARGE' | 'PROXY_RESPONSE_NOT_TRANSFORMABLE'): never {
  response.body.destroy();
  throw new WharfError(code);
}

/** What respond() gives back: the reply, or a promise of it (HEAD drains the upstream body first, a body still arriving is awaited). */
export type Reply = FastifyReply | Promise<FastifyReply>;

/** What the response needs besides its body, decided before the body is read. */
interface Shape {
  readonly inspect: boolean;
  readonly rewrite: boolean;
  readonly contentType: string | undefined;
}

/**
 * Not an async function: the headers are looked at synchronously and a body read whole is one
 * `.then` (no suspended frame per request), none when it already arrived: then the reply itself is
 * returned, and the handler's `.then` takes it without adopting a promise. A refusal is a
 * rejection, as before.
 */
export function sendUpstreamResponse(reply: FastifyReply, response: Dispatcher.ResponseData, options: ResponseOptions): Reply {
  try {
    return send(reply, response, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function send(reply: FastifyReply, response: Dispatcher.ResponseData, options: ResponseOptions): Reply {
  const contentType = headerText(response.headers['content-type']);
  const encoded = (headerText(response.headers['content-encoding']) ?? 'identity').toLowerCase() !== 'identity';
  const transforms = options.endpoint.responseTransforms;
  const inspect = !options.head && mustInspect(transforms, isJson(contentType));
  // a compressed body cannot be transformed or searched (it was asked for as identity)
  if (inspect && encoded) refuse(response, 'PROXY_RESPONSE_NOT_TRANSFORMABLE');
  const limit = options.bufferLimitBytes;
  const length = Number(headerText(response.headers['content-length']) ?? Number.NaN);
  if (inspect && length > limit) refuse(response, 'PROXY_RESPONSE_TOO_LARGE');
  const rewrite = options.rewrites.length > 0 && !encoded && !options.head && isRewritable(contentType);
  const readWhole = !options.head && (inspect || (options.buffer && !(length > limit)) || length <= SMALL_BODY_BYTES);
  const shape: Shape = { inspect, rewrite, contentType };
  if (!readWhole) return respond(reply, response, options, shape, null);
  // read before any header is set: a body that breaks off or cannot be shaped still gets a clean 502.
  // The callbacks are written inline, not bound to a name: tsx (the bench, `wharf dev`) wraps every
  // named function expression in a __name() call, an Object.defineProperty per request.
  if (length <= limit) return readAnnounced(response, (read) => respond(reply, response, options, shape, read));
  return readBody(response, limit).then((read) => respond(reply, response, options, shape, read));
}

function respond(reply: FastifyReply, response: Dispatcher.ResponseData, options: ResponseOptions, shape: Shape, read: BodyRead | null): Reply {
  const { inspect, rewrite, contentType } = shape;
  const transforms = options.endpoint.responseTransforms;
  if (read && !read.complete && inspect) refuse(response, 'PROXY_RESPONSE_TOO_LARGE');
  let bytes = read?.complete ? read.bytes : null;
  if (bytes) {
    const rewriteNeeded = rewrite && containsAny(bytes, options.rewrites);
    const text = rewriteNeeded ? rewriteText(bytes.toString('utf8'), options.rewrites) : null;
    const shaped = inspect ? inspectedBody(text ?? bytes.toString('utf8'), transforms, isJson(contentType)) : null;
    if (shaped === 'refuse') refuse(response, 'PROXY_RESPONSE_NOT_TRANSFORMABLE');
    const out = shaped ?? text;
    if (out !== null) bytes = Buffer.from(out, 'utf8');
  }
  const forwardCookies = options.endpoint.forwardCookies;
  const headers = downstreamResponseHeaders(response.headers, !rewrite && !inspect, forwardCookies);
  const location = headerText(headers['location']);
  if (location && options.rewrites.length > 0) headers['location'] = rewriteText(location, options.rewrites);
  // one reply.headers call (each reply.header call lower-cases and checks its name again)
  if (bytes) headers['content-length'] = String(bytes.length);
  reply.code(response.statusCode);
  reply.headers(headers);
  if (options.head) return response.body.dump().catch(() => undefined).then(() => reply.send());
  if (bytes) return reply.send(bytes);
  const source = read && !read.complete ? Readable.from(resumed(read.head, read.rest), { objectMode: false }) : response.body;
  // pipeline, not .pipe(): an upstream body that breaks off must destroy the rewriting stream too
  // (fastify then cuts the client's response) and never be an 'error' event nobody listens to
  return reply.send(rewrite ? pipeline(source, urlRewriteStream(options.rewrites), () => undefined) : source);
}
