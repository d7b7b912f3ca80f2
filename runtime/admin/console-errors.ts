/**
 * The console's error bodies (spec, Errors table), from the one error registry:
 *   400 {error: <message>, field}      401 {error: "Unauthorized", message}
 *   403 {error: "Access denied", clientIp, requestedPath}
 *   404 {error: "Not found", message}  409 {error: "Conflict", message}
 *   429 {error: "Too many requests", message} (+ Retry-After)
 * Anything else keeps the gateway's body ({success:false, error, traceId} for a 500).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorResponseFor, sendErrorResponse, withErrorStatus } from '../errors/error-handler.js';
import type { ErrorResponse } from '../errors/to-response.js';
import { WharfError } from '../errors/wharf-error.js';

export function consoleBody(error: WharfError, request: FastifyRequest): Record<string, unknown> | null {
  switch (error.status) {
    case 400: {
      const field = error.details?.[0]?.field;
      return field === undefined ? { error: error.message } : { error: error.message, field };
    }
    case 401:
      return { error: 'Unauthorized', message: error.message };
    case 403:
      return { error: 'Access denied', clientIp: request.wharfConsole?.clientIp ?? request.ip, requestedPath: request.url.split('?')[0] };
    case 404:
      return { error: 'Not found', message: error.message };
    case 409:
      return { error: 'Conflict', message: error.message };
    case 429:
      return { error: 'Too many requests', message: error.message };
    default:
      return null;
  }
}

/** A 400 naming the offending field (settings writes, validation). */
export function badRequest(reason: string, field?: string): WharfError {
  return new WharfError('CONSOLE_BAD_REQUEST', { reason }, field === undefined ? {} : { details: [{ field, message: reason }] });
}

/** The request body as a JSON object; anything else (absent, null, an array, a scalar) is a 400. */
export function objectBody(request: FastifyRequest, message = 'The body must be a JSON object'): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Buffer.isBuffer(body)) throw badRequest(message);
  return body as Record<string, unknown>;
}

export function notFound(reason: string): WharfError {
  return new WharfError('CONSOLE_NOT_FOUND', { reason });
}

export function conflict(reason: string): WharfError {
  return new WharfError('CONSOLE_CONFLICT', { reason });
}

/** The response for `error`, logged: a 500 with its stack under the body's traceId, anything else as one info line. */
export function loggedConsoleError(error: Error, request: FastifyRequest): ErrorResponse {
  const response = errorResponseFor(request, error);
  if (response.internal) request.log.error({ traceId: response.body.traceId, err: error }, 'Unhandled error in the console API');
  else request.log.info({ code: response.code, status: response.status }, response.body.error);
  return response;
}

/** The console's error handler: the console body for its statuses, the gateway's body otherwise. */
export function answerConsoleError(error: Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const response = loggedConsoleError(error, request);
  const known = error instanceof WharfError ? error : response.internal ? null : new WharfError('CONSOLE_BAD_REQUEST', { reason: response.body.error });
  const body = known && known.status === response.status ? consoleBody(known, request) : known && response.status === 400 ? { error: response.body.error } : null;
  if (!body) return sendErrorResponse(reply, response);
  return withErrorStatus(reply, response).type('application/json; charset=utf-8').send(body);
}

/** Installs the console error handler on the /ui/api scope. */
export function installConsoleErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: Error, request, reply) => answerConsoleError(error, request, reply));
}
