/**
 * The absolute form of a request target (`GET http://host/api/... HTTP/1.1`, RFC 9112 §3.2.2),
 * which a server must accept though clients send it mostly to proxies, served as its origin form:
 * the path and query route as usual and the target's authority replaces the Host header, as that
 * section requires (a caller could send that Host anyway). Without this the router saw the scheme
 * and authority as path segments. Only `http` and `https`, in any case; anything else stays as sent.
 */
import type { IncomingMessage } from 'node:http';
import { WharfError } from '../errors/wharf-error.js';

const ABSOLUTE = /^https?:\/\/([^/?#]*)/i;

/** The origin form of `req.url` (the path and query); an absolute form's authority becomes `req.headers.host`. */
export function originForm(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (url.charCodeAt(0) === 47 /* / */) return url;
  const absolute = ABSOLUTE.exec(url);
  if (absolute === null) return url;
  // userinfo (`user:pass@host`) is not part of the Host header
  const authority = absolute[1]!.slice(absolute[1]!.lastIndexOf('@') + 1);
  if (authority !== '') req.headers.host = authority;
  const rest = url.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * The asterisk form (`*`, RFC 9112 §3.2.4) names the server as a whole and is only for a
 * server-wide OPTIONS; any other method with it is a malformed request (the caller answers 400).
 */
export function isAsteriskForm(req: IncomingMessage): boolean {
  return req.url === '*';
}

/** The refusal of `*` with a method other than OPTIONS (400 REQUEST_INVALID_URL), on every listener. */
export function asteriskRefusal(method: string): WharfError {
  return new WharfError('REQUEST_INVALID_URL', { reason: `'*' is only allowed as the target of OPTIONS (RFC 9112 section 3.2.4), not of ${method}.` });
}
