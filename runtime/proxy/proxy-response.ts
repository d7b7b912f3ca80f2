/**
 * Sends an upstream response to the client. Streams it (backpressure preserved, nothing buffered)
 * unless the body must be read whole: ResponseTransforms on a JSON body, or a cacheable read the
 * response cache is filling (it stores strings/Buffers only). JSON/XML bodies get their absolute
 * upstream URLs rewritten to the gateway route; so does a `Location` header.
 */
import { pipeline } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Dispatcher } from 'undici';
import type { ProxyEndpoint } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';
import { hasTransforms, transformBody } from '../transforms/response-transforms.js';
import { classifyError } from './failover.js';
import { downstreamResponseHeaders } from './request-headers.js';
import { containsAny, isRewritable, rewriteText, urlRewriteStream } from './url-rewrite.js';
import type { UrlRewrite } from './url-rewrite.js';

/** Bodies announced at most this long are read whole and sent with a Content-Length (fewer writes than a stream). */
export const SMALL_BODY_BYTES = 64 * 1024;

export interface ResponseOptions {
  readonly endpoint: ProxyEndpoint;
  readonly rewrites: readonly UrlRewrite[];
  /** The response cache is waiting for this body. */
  readonly buffer: boolean;
  readonly head: boolean;
}

function isJson(contentType: string | undefined): boolean {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || media.endsWith('+json');
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Applies transforms to a JSON text; text that does not parse passes untouched. */
export function transformJsonText(text: string, endpoint: ProxyEndpoint): string {
  if (!hasTransforms(endpoint.responseTransforms)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(transformBody(parsed, endpoint.responseTransforms));
}

/** The whole body; an upstream that breaks it off becomes a 502 (504 on a body timeout) before anything is sent. */
async function readBody(response: Dispatcher.ResponseData): Promise<Buffer> {
  try {
    return Buffer.from(await response.body.arrayBuffer());
  } catch (error) {
    const timeout = classifyError(error) === 'timeout';
    throw new WharfError(timeout ? 'PROXY_UPSTREAM_TIMEOUT' : 'PROXY_UPSTREAM_UNAVAILABLE', undefined, { cause: error });
  }
}

export async function sendUpstreamResponse(
  reply: FastifyReply,
  response: Dispatcher.ResponseData,
  options: ResponseOptions,
): Promise<FastifyReply> {
  const contentType = headerText(response.headers['content-type']);
  const encoded = (headerText(response.headers['content-encoding']) ?? 'identity').toLowerCase() !== 'identity';
  const transform = hasTransforms(options.endpoint.responseTransforms) && isJson(contentType);
  if (transform && encoded) {
    await response.body.dump().catch(() => undefined);
    throw new WharfError('PROXY_UPSTREAM_UNAVAILABLE'); // cannot apply Remove/Mask to a compressed body
  }
  const rewrite = options.rewrites.length > 0 && !encoded && !options.head && isRewritable(contentType);
  const length = Number(headerText(response.headers['content-length']) ?? Number.NaN);
  const small = length <= SMALL_BODY_BYTES;
  const readWhole = !options.head && (transform || options.buffer || small);
  // read before any header is set: a body that breaks off still gets a clean 502
  const bytes = readWhole ? await readBody(response) : null;
  const headers = downstreamResponseHeaders(response.headers, !rewrite && !transform);
  const location = headerText(headers['location']);
  if (location && options.rewrites.length > 0) headers['location'] = rewriteText(location, options.rewrites);
  reply.code(response.statusCode);
  reply.headers(headers);
  if (options.head) {
    await response.body.dump().catch(() => undefined);
    return reply.send();
  }
  if (bytes) {
    const rewriteNeeded = rewrite && containsAny(bytes, options.rewrites);
    if (!rewriteNeeded && !transform) return reply.header('content-length', bytes.length).send(bytes);
    let text = bytes.toString('utf8');
    if (rewriteNeeded) text = rewriteText(text, options.rewrites);
    if (transform) text = transformJsonText(text, options.endpoint);
    return reply.send(Buffer.from(text, 'utf8'));
  }
  // pipeline, not .pipe(): an upstream body that breaks off must destroy the rewriting stream too
  // (fastify then cuts the client's response) and never be an 'error' event nobody listens to
  return reply.send(rewrite ? pipeline(response.body, urlRewriteStream(options.rewrites), () => undefined) : response.body);
}
