/**
 * What the documentation-site server and the sync health/dashboard listener share with the
 * gateway's fastify (create-fastify.ts) about the request itself:
 *  - an absolute-form target (`GET http://host/path`, RFC 9112 §3.2.2) is served as its origin
 *    form, the target's authority replacing Host (routing/request-target.ts);
 *  - an asterisk-form target (`GET *`) with any method but OPTIONS is refused 400 REQUEST_INVALID_URL
 *    (before, the docs server rendered its home page for it);
 *  - a URL the router cannot parse, and any error a route throws, get the spec's error body from
 *    the registry (before: fastify's own `{statusCode, code, error, message}`, and for a 500 the
 *    thrown message); a 500 logs its error under the traceId of the body;
 *  - every answer carries `X-Content-Type-Options: nosniff` (the sync health routes had none,
 *    and `/health/state/{environment}` echoes the name it was given);
 *  - a Host header that is missing (HTTP/1.1) or names no host (`a b`, `x<y>`, `host/path`, a
 *    port above 65535) is refused 400 with `Connection: close` (RFC 9112 section 3.2; the docs
 *    server's feed, which builds its links from the Host, answered 500 for several);
 *  - a Host this server does not answer for is refused 400 REQUEST_HOST_NOT_ALLOWED with
 *    `Connection: close` (DNS rebinding; the policy, `Docs:AllowedHosts` or `Health:AllowedHosts`
 *    and the listen address, in serve/allowed-hosts.ts), checked after the absolute-form rewrite;
 *  - what Node's HTTP parser refuses (a malformed request line, headers too large) and CONNECT get
 *    the spec body with `Connection: close` (errors/client-error.ts; before: fastify's own body,
 *    and for CONNECT the connection dropped without an answer).
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import http from 'node:http';
import { createClientErrorHandler, createConnectRefusal } from '../errors/client-error.js';
import { errorResponseFor, sendErrorResponse } from '../errors/error-handler.js';
import { invalidHost, missingHost } from '../lifecycle/require-host.js';
import { hostFilter, hostNotAllowed, type HostPolicy } from './allowed-hosts.js';
import { asteriskRefusal, isAsteriskForm, originForm } from '../routing/request-target.js';

/** Options for `Fastify(...)`; `log` is read when a client error is logged (the instance's logger). */
export function listenerOptions(log: () => FastifyBaseLogger) {
  const options = {
    rewriteUrl: originForm,
    // answered before any hook runs, so the header is set here too
    frameworkErrors: (error, request, reply) => {
      sendErrorResponse(reply.header('X-Content-Type-Options', 'nosniff'), errorResponseFor(request, error));
    },
    clientErrorHandler: createClientErrorHandler(log, http.maxHeaderSize),
  } as const satisfies Pick<FastifyServerOptions, 'rewriteUrl' | 'frameworkErrors' | 'clientErrorHandler'>;
  // a missing Host gets the spec body in the onRequest hook (lifecycle/require-host.ts), not Node's bare 400
  return { ...options, http: { requireHostHeader: false } satisfies http.ServerOptions };
}

/** The error handler, the Host checks, the asterisk-form refusal, nosniff and the CONNECT refusal, on the root instance. */
export function installListenerBasics(app: FastifyInstance, hosts: HostPolicy): void {
  const allowed = hostFilter(hosts);
  app.server.on('connect', createConnectRefusal((): FastifyBaseLogger => app.log));
  app.setErrorHandler((error, request, reply) => {
    const response = errorResponseFor(request, error);
    if (response.internal) request.log.error({ err: error, traceId: response.body.traceId }, 'request failed');
    return sendErrorResponse(reply, response);
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
  });
  app.addHook('onRequest', async (request) => {
    const badHost = missingHost(request.raw) ?? invalidHost(request.raw);
    if (badHost) throw badHost;
    if (!allowed(request.raw.headers.host)) throw hostNotAllowed(hosts.setting);
    if (request.method !== 'OPTIONS' && isAsteriskForm(request.raw)) throw asteriskRefusal(request.method);
  });
}
