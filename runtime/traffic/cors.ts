/**
 * CORS for browser apps calling the data API (Cors:*, cors-settings.ts), as the first onRequest hook
 * of the URLs it covers, so a preflight is answered before authentication (a browser never sends
 * `Authorization` on a preflight):
 *   - preflight (OPTIONS + Access-Control-Request-Method): 204; the Access-Control-Allow-* headers only
 *     for a listed origin and a listed method;
 *   - any other request from a listed origin: Access-Control-Allow-Origin (the origin itself, `*` only
 *     for `*` without credentials), -Allow-Credentials, -Expose-Headers; refusals (401, 403, 429) too,
 *     so the app can read them;
 *   - `Vary: Origin` on every response of a covered URL (caches must not mix origins);
 *   - the gateway's answer is the only one: Access-Control-* headers set by anything else (a Proxy
 *     upstream with its own CORS, often any origin with credentials) are removed when the response
 *     is sent, and `Vary: Origin` is put back if an upstream's Vary replaced it.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isProtectedUrl } from '../auth/access-hooks.js';
import { corsEnabled } from './cors-settings.js';
import type { CorsSettings } from './cors-settings.js';

export interface CorsOptions {
  readonly settings: CorsSettings;
  /** Which URLs get CORS. */
  readonly appliesTo: (url: string) => boolean;
}

/** The data API, `/health*` and `/openapi.json`: what a browser app calls. Not the console (`/ui`, same origin). */
export function isCorsUrl(url: string): boolean {
  if (isProtectedUrl(url)) return true;
  const path = url.split('?')[0] ?? url;
  return path === '/health/live' || path === '/openapi.json';
}

function allowedOrigin(settings: CorsSettings, origin: string): string | null {
  if (settings.allowedOrigins.includes(origin.toLowerCase())) return origin;
  if (settings.anyOrigin && origin !== 'null') return '*';
  return null;
}

function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  if (current === undefined) reply.header('vary', 'Origin');
  else if (!String(current).split(',').some((item) => item.trim().toLowerCase() === 'origin')) reply.header('vary', `${String(current)}, Origin`);
}

export function installCors(app: FastifyInstance, options: CorsOptions): void {
  const { settings } = options;
  if (!corsEnabled(settings)) return;
  const methods = settings.allowedMethods.join(', ');
  const headers = settings.allowedHeaders.join(', ');
  const exposed = settings.exposedHeaders.join(', ');
  /** What the gateway granted each covered request (Access-Control-* headers); nothing else may add to it. */
  const granted = new WeakMap<object, Record<string, string>>();
  const grant = (request: object, reply: FastifyReply, headers: Record<string, string>): void => {
    granted.set(request, headers);
    reply.headers(headers);
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    const headers = granted.get(request);
    if (headers === undefined) return done(null, payload);
    for (const name of Object.keys(reply.getHeaders())) {
      if (name.toLowerCase().startsWith('access-control-') && headers[name.toLowerCase()] === undefined) reply.removeHeader(name);
    }
    reply.headers(headers);
    addVary(reply);
    done(null, payload);
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!options.appliesTo(request.url)) return done();
    granted.set(request, {});
    addVary(reply);
    const origin = request.headers.origin;
    const allowed = typeof origin === 'string' ? allowedOrigin(settings, origin) : null;
    const requestedMethod = request.headers['access-control-request-method'];
    if (request.method === 'OPTIONS' && typeof requestedMethod === 'string') {
      reply.header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
      if (allowed !== null && settings.allowedMethods.includes(requestedMethod.toUpperCase())) {
        grant(request, reply, {
          'access-control-allow-origin': allowed,
          ...(settings.allowCredentials ? { 'access-control-allow-credentials': 'true' } : {}),
          'access-control-allow-methods': methods,
          'access-control-allow-headers': headers,
          'access-control-max-age': String(settings.maxAgeSeconds),
        });
      }
      reply.code(204).send();
      return;
    }
    if (allowed !== null) {
      grant(request, reply, {
        'access-control-allow-origin': allowed,
        ...(settings.allowCredentials ? { 'access-control-allow-credentials': 'true' } : {}),
        ...(exposed !== '' ? { 'access-control-expose-headers': exposed } : {}),
      });
    }
    done();
  });
}
