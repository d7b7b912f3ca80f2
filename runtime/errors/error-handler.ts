/**
 * The one place where errors become responses: fastify's error handler and not-found handler,
 * both answering with the spec body. 500s log the stack under the same traceId the body carries
 * (on the request's one log line).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './to-response.js';
import type { ErrorResponse } from './to-response.js';
import { WharfError } from './wharf-error.js';
import { noteRequestError } from '../logging/request-log.js';

/** The error response's status and headers on `reply` (Retry-After, WWW-Authenticate, ...), its body not yet sent. */
export function withErrorStatus(reply: FastifyReply, response: ErrorResponse): FastifyReply {
  reply.code(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  return reply;
}

export function sendErrorResponse(reply: FastifyReply, response: ErrorResponse): FastifyReply {
  return withErrorStatus(reply, response).header('content-type', 'application/json; charset=utf-8').send(response.body);
}

export function errorResponseFor(request: FastifyRequest, error: unknown): ErrorResponse {
  return toErrorResponse(error, {
    traceId: String(request.id),
    contentType: request.headers['content-type'],
    bodyLimit: request.routeOptions?.bodyLimit ?? 0,
  });
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const response = errorResponseFor(request, error);
    // logged once, on the request's line (runtime/logging/request-log.ts)
    noteRequestError(request, response.internal ? { code: response.code, err: error } : { code: response.code });
    return sendErrorResponse(reply, response);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const error = new WharfError('ROUTING_ROUTE_NOT_FOUND', { method: request.method, path });
    const response = errorResponseFor(request, error);
    noteRequestError(request, { code: response.code });
    return sendErrorResponse(reply, response);
  });
}
