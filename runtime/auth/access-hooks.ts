/**
 * Fastify wiring of admission: an onRequest hook (before routing and before the body is read,
 * so an unauthenticated upload is refused without reading it) on the URLs it protects.
 * Call installAccessControl(app, ...) on the instance (or scope) that serves those URLs.
 * request.wharfAccess carries the Admission (principal, client IP) to later stages.
 * A refusal (401, 429) is thrown as a WharfError: the central error handler sends it, keeping the
 * X-RateLimit-* headers this hook has already set on the reply.
 */
import type { FastifyInstance } from 'fastify';
import { admit } from './admission.js';
import type { AccessControl, Admission } from './admission.js';

declare module 'fastify' {
  interface FastifyRequest {
    wharfAccess: Admission | null;
  }
}

export interface AccessHookOptions {
  readonly control: AccessControl;
  /** Which request URLs need a token. Default: `/api` and everything below it. */
  readonly appliesTo?: (url: string) => boolean;
}

export function isApiUrl(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** The data API plus `/health` and `/health/details` (spec: bearer token); `/health/live` stays open. */
export function isProtectedUrl(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return isApiUrl(url) || path === '/health' || path === '/health/details';
}

export function installAccessControl(app: FastifyInstance, options: AccessHookOptions): void {
  const appliesTo = options.appliesTo ?? isApiUrl;
  if (!app.hasRequestDecorator('wharfAccess')) app.decorateRequest('wharfAccess', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!appliesTo(request.url)) return;
    const admission = await admit(options.control, request.raw.socket.remoteAddress, request.headers);
    request.wharfAccess = admission;
    reply.headers(admission.headers);
    if (admission.error) throw admission.error;
  });
}
