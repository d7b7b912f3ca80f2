/**
 * HTTP/1.1 requires a Host header (RFC 9112 section 3.2). Node refuses a request without one with a
 * bare 400 and no body; the server turns that off (`requireHostHeader: false`) and refuses it here
 * instead, first thing, with the spec's error body and Connection: close. HTTP/1.0 needs no Host.
 */
import type { FastifyInstance } from 'fastify';
import { WharfError } from '../errors/wharf-error.js';

export function installRequireHost(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    if (raw.headers.host === undefined && raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1) {
      done(new WharfError('REQUEST_MALFORMED', { reason: 'the Host header is missing (HTTP/1.1 requires it).' }, { headers: { connection: 'close' } }));
      return;
    }
    done();
  });
}
