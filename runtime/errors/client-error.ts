/**
 * Errors Node's HTTP parser raises before fastify sees a request (`clientError`): headers or URL
 * over the limit, a malformed request line or header, Transfer-Encoding with Content-Length, an
 * unknown method, a request that did not arrive in time. They get the spec's error body from the
 * one registry too, with `Connection: close` (the connection cannot be reused after a parse
 * error, and a keep-alive client must not send its next request into a closed socket).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { WharfError } from './wharf-error.js';

/** What the parser's error code means, in words a client can act on. */
const PARSER_REASONS: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD: 'unknown HTTP method.',
  HPE_INVALID_URL: 'the request target contains characters that are not allowed (encode them).',
  HPE_INVALID_HEADER_TOKEN: 'a header contains a character that is not allowed (obsolete line folding included).',
  HPE_INVALID_CONSTANT: 'the request line is not valid HTTP/1.1.',
  HPE_INVALID_VERSION: 'unsupported HTTP version.',
  HPE_CR_EXPECTED: 'bad line ending (CR without LF, or LF without CR).',
  HPE_LF_EXPECTED: 'bad line ending (CR without LF, or LF without CR).',
  // llhttp's code for a second Content-Length as well as for one beside Transfer-Encoding
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length must be sent once, and never together with Transfer-Encoding.',
  HPE_INVALID_CONTENT_LENGTH: 'invalid Content-Length.',
  HPE_INVALID_TRANSFER_ENCODING: 'invalid Transfer-Encoding (only chunked, and never together with Content-Length).',
  HPE_INVALID_CHUNK_SIZE: 'invalid chunk size.',
  HPE_UNEXPECTED_SPACE: 'unexpected whitespace (obsolete line folding is not accepted).',
  HPE_INVALID_HEADER_VALUE: 'a header value contains a character that is not allowed.',
};

export function clientErrorToWharf(error: NodeJS.ErrnoException, maxHeaderSize: number): WharfError {
  const code = error.code ?? '';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT') return new WharfError('REQUEST_TIMEOUT');
  if (code === 'HPE_HEADER_OVERFLOW') return new WharfError('REQUEST_HEADERS_TOO_LARGE', { limit: maxHeaderSize });
  return new WharfError('REQUEST_MALFORMED', { reason: PARSER_REASONS[code] ?? 'the request could not be parsed.' });
}

/** The raw HTTP/1.1 response for a client error (the socket has no request object to reply on). */
export function clientErrorResponse(error: WharfError): string {
  const body = JSON.stringify({ success: false, error: error.message });
  const reason = http.STATUS_CODES[error.status] ?? 'Error';
  return (
    `HTTP/1.1 ${error.status} ${reason}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** fastify's `clientErrorHandler` option; `this` is the fastify instance. */
export function createClientErrorHandler(log: () => FastifyBaseLogger, maxHeaderSize: number) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    // a reset connection has nobody to answer
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const wharf = clientErrorToWharf(error, maxHeaderSize);
    // the URL is never logged here: it may hold credentials and it is what failed to parse
    log().info({ event: 'http.client_error', code: error.code, status: wharf.status }, wharf.message);
    if (socket.writable) socket.end(clientErrorResponse(wharf));
    else socket.destroy();
  };
}

/**
 * The HTTP server's `connect` listener: a CONNECT (a forward-proxy tunnel request) never reaches
 * fastify, and without a listener Node drops the connection without a word. Answered 400 with the
 * spec's body (its authority-form target is no URL of this server) and closed; nothing is tunnelled.
 */
export function createConnectRefusal(log: () => FastifyBaseLogger) {
  return (_request: http.IncomingMessage, socket: Socket): void => {
    const wharf = new WharfError('REQUEST_CONNECT_REFUSED');
    log().info({ event: 'http.client_error', code: 'CONNECT', status: wharf.status }, wharf.message);
    if (socket.writable) socket.end(clientErrorResponse(wharf));
    else socket.destroy();
  };
}
