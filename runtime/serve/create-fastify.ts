/**
 * The fastify instance of the gateway, before any area is mounted: logger, request ids, body
 * limit, the HTTP server's time limits, and the errors fastify and Node raise before any route
 * runs, answered with the spec's body.
 */
import fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import http from 'node:http';
import { createClientErrorHandler, createConnectRefusal } from '../errors/client-error.js';
import { errorResponseFor, sendErrorResponse } from '../errors/error-handler.js';
import { filesPathRefusal } from '../files/path-refusal.js';
import { lazyChildLoggerFactory } from '../logging/lazy-child-logger.js';
import { canonicalApiPrefix } from '../routing/api-prefix.js';
import { originForm } from '../routing/request-target.js';
import type { ServerSettings } from '../settings/server-settings.js';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';
import { requestId } from './request-id.js';

export function createFastify(limits: ServerSettings['server'], logger: FastifyServerOptions['logger']): FastifyInstance {
  const app: FastifyInstance = fastify({
    logger,
    // request.log made only when something is logged through it (lazy-child-logger.ts)
    ...(logger === false ? {} : { childLoggerFactory: lazyChildLoggerFactory }),
    // one line per request, written by installRequestLog (runtime/logging/request-log.ts)
    logController: new LogController({ disableRequestLogging: true }),
    // a random UUID (v4) per request, made in blocks (request-id.ts)
    genReqId: requestId,
    schemaController: lazySchemaCompilers(),
    bodyLimit: limits.bodyLimitBytes,
    // Time limits (docs/operations.md): the request gate answers the shutdown 503 itself.
    return503OnClosing: false,
    // requireHostHeader: a request without Host gets the spec's error body (lifecycle/require-host.ts)
    http: { headersTimeout: limits.headersTimeoutSeconds * 1000, connectionsCheckingInterval: 1000, requireHostHeader: false },
    // Errors raised by the router before any route runs (malformed percent-encoding in the URL).
    frameworkErrors: (error, request, reply) => {
      sendErrorResponse(reply, errorResponseFor(request, filesPathRefusal(request.url, error)));
    },
    // Spec: data API URLs are case-insensitive, the `/api` prefix included (`/API/demo/...`).
    // An absolute-form target (`GET http://host/path`) is served as its path (routing/request-target.ts).
    rewriteUrl: (req) => canonicalApiPrefix(originForm(req)),
    // Errors of Node's HTTP parser (431, 408, malformed requests): the same error body, Connection: close.
    clientErrorHandler: createClientErrorHandler((): FastifyBaseLogger => app.log, http.maxHeaderSize),
  });
  // a CONNECT never reaches fastify: without this Node closes the connection without an answer
  app.server.on('connect', createConnectRefusal((): FastifyBaseLogger => app.log));
  return app;
}
