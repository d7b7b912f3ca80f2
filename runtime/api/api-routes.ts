/**
 * The data API: one catch-all route for `/api` and `/api/*` and every API method, dispatching
 * through the pipeline stages against the route table current when the request started.
 * Body parsing in this scope: JSON (our parser, precise errors; a `Content-Encoding` other than
 * identity is a 415, the body is never read as text), anything else as a raw Buffer (the kind's
 * handler decides what it accepts).
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WharfError } from '../errors/wharf-error.js';
import type { HandlerRegistry } from '../handlers/registry.js';
import { STOP } from '../pipeline/api-request.js';
import { unsupportedCoding } from '../pipeline/content-coding.js';
import type { ApiRequestState, PipelineStage } from '../pipeline/api-request.js';
import { NO_TIMING, ServerTiming } from '../pipeline/server-timing.js';
import { runPipeline } from '../pipeline/stages.js';
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import type { Settings } from '../settings/load-settings.js';
import { parseJsonBody } from './json-body.js';

export const API_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'MERGE', 'QUERY', 'OPTIONS'] as const;

export interface ApiRoutesOptions {
  /** The settings in force (the console may swap them). */
  readonly settings: () => Settings;
  readonly holder: RouteTableHolder;
  readonly handlers: HandlerRegistry;
  readonly stages: readonly PipelineStage[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's stage timings (null when Server:ServerTiming is off). */
    wharfTiming: ServerTiming | null;
    /** The pipeline state of an /api request (its `match` names the endpoint for /metrics). */
    wharfApi: ApiRequestState | null;
    /** The JSON body text as received (webhooks store it unchanged, a Proxy forwards these bytes); null without a JSON body. */
    wharfRawBody: string | null;
    /**
     * An empty JSON body where one is required: answered by the body stage once the endpoint is
     * known (a Webhook endpoint says `Webhook payload must be JSON.`, docs/webhooks.md).
     */
    wharfEmptyJson: WharfError | null;
  }
}

/** What the route answers once the stages ran: the reply when it was sent, else the handler's result. */
function answer(state: ApiRequestState, outcome: typeof STOP | void): unknown {
  const reply = state.reply;
  if (outcome === STOP || reply.sent || state.result === reply) return reply;
  if (state.result === undefined) {
    throw new WharfError('INTERNAL_HANDLER_NO_RESPONSE', { kind: state.match?.endpoint.kind ?? 'unknown' });
  }
  return state.result;
}

// ignoreBOM: a byte order mark stays in the text, as it did when fastify decoded it
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as UTF-8 text, or null when it is not valid UTF-8. */
function utf8Text(body: Buffer): string | null {
  try {
    return strictUtf8.decode(body);
  } catch {
    return null;
  }
}

export async function apiRoutes(app: FastifyInstance, options: ApiRoutesOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.decorateRequest('wharfRawBody', null);
  app.decorateRequest('wharfEmptyJson', null);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // a coded body (gzip from a compressing client) read as text is noise: 415 naming the coding
    const coded = unsupportedCoding(request.headers['content-encoding']);
    if (coded !== null) {
      done(coded, undefined);
      return;
    }
    // JSON is UTF-8 (RFC 8259 §8.1); read leniently, other bytes became U+FFFD and were stored so
    // (a Webhook payload "exactly as received" was not)
    const text = utf8Text(body as Buffer);
    if (text === null) {
      done(new WharfError('REQUEST_INVALID_JSON', { reason: 'the body is not valid UTF-8.' }), undefined);
      return;
    }
    request.wharfRawBody = text;
    try {
      done(null, parseJsonBody(text, request.method.toUpperCase()));
    } catch (error) {
      if (error instanceof WharfError && error.code === 'REQUEST_EMPTY_JSON') {
        request.wharfEmptyJson = error;
        done(null, undefined);
        return;
      }
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.decorateRequest('wharfTiming', null);
  app.decorateRequest('wharfApi', null);
  const timed = options.settings().server.server.serverTiming;
  if (timed) {
    // synchronous (callback style): no promise per response
    app.addHook('onSend', (request, reply, payload, done) => {
      const header = request.wharfTiming?.header();
      if (header) reply.header('server-timing', header);
      done(null, payload);
    });
  }

  // not an async function: no suspended frame per request while the handler waits
  function handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    // created here rather than in an onRequest hook: nothing is timed before the handler runs
    let timing = NO_TIMING;
    if (timed) {
      timing = new ServerTiming();
      request.wharfTiming = timing;
    }
    const state: ApiRequestState = {
      request,
      reply,
      method: request.method.toUpperCase(),
      settings: options.settings(),
      routes: options.holder.current,
      handlers: options.handlers,
      timing,
      // filled in by the stages; declared here so the object keeps one shape (no properties added per request)
      envSegment: undefined,
      segments: undefined,
      environment: undefined,
      match: undefined,
      result: undefined,
    };
    request.wharfApi = state;
    return runPipeline(state, options.stages).then((outcome) => answer(state, outcome));
  }

  app.route({ method: [...API_METHODS], url: '/api', handler: handle });
  app.route({ method: [...API_METHODS], url: '/api/*', handler: handle });
  // Files endpoints live under /api/{env}/files/ (spec). Only there is multipart/form-data read:
  // uploads stream it (request.file()), with no body limit but the endpoint's own. @fastify/multipart
  // adds async hooks to every request of its scope, so it gets a scope of its own, not the whole API.
  await app.register(async (files) => {
    await files.register(fastifyMultipart);
    files.route({ method: [...API_METHODS], url: '/api/:env/files', handler: handle });
    files.route({ method: [...API_METHODS], url: '/api/:env/files/*', handler: handle });
  });
}
