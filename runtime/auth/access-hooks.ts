/**
 * Fastify wiring of admission: an onRequest hook (before routing and before the body is read,
 * so an unauthenticated upload is refused without reading it) on the URLs it protects.
 * Call installAccessControl(app, ...) on the instance (or scope) that serves those URLs.
 * request.wharfAccess carries the Admission (principal, client IP) to later stages.
 * A refusal (401, 429) is thrown as a WharfError: the central error handler sends it, keeping the
 * X-RateLimit-* headers this hook has already set on the reply.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { admit, admitCached } from './admission.js';
import type { AccessControl, Admission } from './admission.js';
import type { AuthorizationRule } from '../contract/model.js';

declare module 'fastify' {
  interface FastifyRequest {
    wharfAccess: Admission | null;
    /** The endpoint's Authorization rule that applies (set by the authorize stage); null without rules. */
    wharfRule: AuthorizationRule | null;
  }
}

export interface AccessHookOptions {
  readonly control: AccessControl;
  /** Which request URLs need a token. Default: `/api` and everything below it. */
  readonly appliesTo?: (url: string) => boolean;
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/**
 * The path the router matches: find-my-way percent-decodes it first, so `/health/%64etails` is
 * served by `/health/details` and `/%61pi/...` by `/api/*`. A path with a `%` is judged decoded
 * (malformed encoding: as written; the router refuses it with a 400 anyway).
 */
function routedPath(url: string): string {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function isApiUrl(url: string): boolean {
  return isApiPath(url) || (url.includes('%') && isApiPath(routedPath(url)));
}

/** The data API plus `/health` and `/health/details` (spec: bearer token); `/health/live` and `/health/ready` stay open. */
export function isProtectedUrl(url: string): boolean {
  if (isApiUrl(url)) return true;
  const path = routedPath(url);
  return path === '/health' || path === '/health/details';
}

export function installAccessControl(app: FastifyInstance, options: AccessHookOptions): void {
  const appliesTo = options.appliesTo ?? isApiUrl;
  if (!app.hasRequestDecorator('wharfAccess')) app.decorateRequest('wharfAccess', null);
  if (!app.hasRequestDecorator('wharfRule')) app.decorateRequest('wharfRule', null);
  const control = options.control;
  // callback style: answered synchronously when admission needs no I/O (admitCached)
  app.addHook('onRequest', (request, reply, done) => {
    if (!appliesTo(request.url)) return done();
    const known = admitCached(control, request.raw.socket.remoteAddress, request.headers);
    if (known) return admitted(request, reply, known, done);
    admit(control, request.raw.socket.remoteAddress, request.headers).then((admission) => admitted(request, reply, admission, done), done);
  });
}

function admitted(request: FastifyRequest, reply: FastifyReply, admission: Admission, done: (error?: Error) => void): void {
  request.wharfAccess = admission;
  reply.headers(admission.headers);
  done(admission.error ?? undefined);
}
