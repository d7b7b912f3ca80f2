/**
 * The asterisk form of a request target (`OPTIONS * HTTP/1.1`, RFC 9112 section 3.2.4) asks about
 * the server as a whole rather than a resource, and is defined only for OPTIONS. `OPTIONS *` answers
 * 204 with `Allow`: every method some route of this server serves. Any other method with `*` is a
 * 400 REQUEST_INVALID_URL. Before, `GET *` and `HEAD *` were served the landing page and the other
 * methods a 404 "Route 'POST *' not found" (also `OPTIONS *`). The request gate's onRequest hook
 * calls this (one hook, not one per concern); `*` reaches it unchanged (routing/request-target.ts
 * and routing/api-prefix.ts leave it as sent).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HTTP_METHODS } from '../contract/index.js';
import type { WharfError } from '../errors/wharf-error.js';
import { allowHeader } from '../pipeline/stages.js';
import { asteriskRefusal, isAsteriskForm } from '../routing/request-target.js';

/** `Allow` of `OPTIONS *`: the methods of the data API, HEAD next to GET, then OPTIONS. */
export const SERVER_ALLOW = allowHeader(HTTP_METHODS);

/**
 * For an asterisk-form request: answers `OPTIONS *` (204, `Allow`) and returns 'answered', or
 * returns the refusal of any other method. For every other request target: null.
 */
export function asteriskForm(request: FastifyRequest, reply: FastifyReply): WharfError | 'answered' | null {
  if (!isAsteriskForm(request.raw)) return null;
  if (request.method === 'OPTIONS') {
    reply.code(204).header('allow', SERVER_ALLOW).send();
    return 'answered';
  }
  return asteriskRefusal(request.method);
}

