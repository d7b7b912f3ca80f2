/**
 * HTTP/1.1 requires a Host header (RFC 9112 section 3.2). Node refuses a request without one with a
 * bare 400 and no body; the server turns that off (`requireHostHeader: false`) and refuses it here
 * instead, first thing after the request gate (whose onRequest hook calls this: one hook, not one
 * per concern), with the spec's error body and Connection: close. HTTP/1.0 needs no Host.
 */
import type { IncomingMessage } from 'node:http';
import { WharfError } from '../errors/wharf-error.js';

/** The refusal of an HTTP/1.1 request without a Host header; null when it has one (or is HTTP/1.0). */
export function missingHost(raw: IncomingMessage): WharfError | null {
  if (raw.headers.host !== undefined || raw.httpVersionMajor !== 1 || raw.httpVersionMinor < 1) return null;
  return new WharfError('REQUEST_MALFORMED', { reason: 'the Host header is missing (HTTP/1.1 requires it).' }, { headers: { connection: 'close' } });
}

/** RFC 3986 host (reg-name, IPv4 or [IP-literal]) and optional port: no userinfo, path, space or `<>"`. */
const HOST = /^(?:\[[0-9A-Za-z:._~!$&'()*+,;=-]+\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+)(?::\d*)?$/;

/**
 * The refusal of a Host header that names no host (RFC 9112 section 3.2: a server must answer 400
 * to an invalid one): outside the RFC 3986 grammar, or not a host a URL can hold (`a%00`, port
 * above 65535), or empty. Null without a Host (missingHost's case) or with a valid one.
 */
export function invalidHost(raw: IncomingMessage): WharfError | null {
  const host = raw.headers.host;
  if (host === undefined || (HOST.test(host) && URL.canParse(`http://${host}/`))) return null;
  return new WharfError('REQUEST_MALFORMED', { reason: 'the Host header is not a host name or address with an optional port.' }, { headers: { connection: 'close' } });
}
