/**
 * One log line per request, written when the response is done (the gateway's one onResponse hook, lifecycle/response-observers.ts): method, redacted URL, status,
 * time, and for a refused request its error code (for a 500 the error with its stack, under the
 * traceId the body carries). fastify's own two lines per request are off (disableRequestLogging).
 *
 * Levels: `info` for every answered request (a 4xx is the caller's business), `error` for a 5xx. So `Logging:MinLevel` `warn` (the documented production setting) logs only requests the
 * server failed, and `info` (the default) logs every request once. docs/runtime.md#logging.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { observeResponses } from '../lifecycle/response-observers.js';
import { redactUrl } from './redact-url.js';
import { requestLineWriter } from './request-line.js';

interface RequestError {
  readonly code: string;
  /** Only for internal errors: the error itself (stack in the log, never in the body). */
  readonly err?: unknown;
}

const errors = new WeakMap<FastifyRequest, RequestError>();

/** The error handler tells the request line what went wrong. */
export function noteRequestError(request: FastifyRequest, error: RequestError): void {
  errors.set(request, error);
}

/** pino serializer for `req` (fastify's own log lines, e.g. a client abort): the URL redacted. */
export function serializeRequest(request: { method?: string; url?: string; id?: unknown }): Record<string, unknown> {
  return { method: request.method, url: redactUrl(request.url ?? ''), reqId: request.id };
}

export function installRequestLog(app: FastifyInstance): void {
  // through the server's logger with `reqId` as the first field: the line a child logger bound to
  // the request would write, without making that child (lazy-child-logger.ts)
  const log = app.log;
  const levels = log as unknown as { isLevelEnabled?(level: string): boolean };
  // no logger (`logger: false`): fastify's stand-in writes nothing and has no levels
  const enabled = (level: string): boolean => levels.isLevelEnabled?.(level) ?? false;
  // the line from a template when pino's own would be the same bytes (request-line.ts)
  const template = requestLineWriter(log);
  observeResponses(app, (request, reply) => {
    const statusCode = reply.statusCode;
    const error = statusCode >= 500;
    if (!enabled(error ? 'error' : 'info')) return;
    const url = redactUrl(request.url);
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    const noted = errors.get(request);
    const msg = `${request.method} ${url} ${statusCode} ${responseTime} ms`;
    const reqId = request.id as unknown;
    if (template !== null && noted?.err === undefined && typeof reqId === 'string') {
      template(error ? 50 : 30, { reqId, method: request.method, url, statusCode, responseTime, code: noted?.code, msg });
      return;
    }
    const fields: Record<string, unknown> = { reqId: request.id, method: request.method, url, statusCode, responseTime };
    if (noted) fields['code'] = noted.code;
    if (noted?.err !== undefined) {
      fields['traceId'] = String(request.id);
      fields['err'] = noted.err;
    }
    if (error) log.error(fields, msg);
    else log.info(fields, msg);
  });
}
