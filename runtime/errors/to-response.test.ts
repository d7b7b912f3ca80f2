import { describe, expect, it } from 'vitest';
import { INTERNAL_ERROR_MESSAGE } from './registry.js';
import { toErrorResponse } from './to-response.js';
import { WharfError } from './wharf-error.js';

const FACTS = { traceId: 'trace-1', contentType: 'text/x', bodyLimit: 1024 };

function fastifyError(code: string, statusCode: number, message = 'fastify says'): Error {
  return Object.assign(new Error(message), { code, statusCode });
}

describe('toErrorResponse', () => {
  it.each([
    ['WharfError 4xx', new WharfError('ROUTING_ENV_NOT_ALLOWED', { env: 'x' }), 400, { success: false, error: "Environment 'x' is not allowed." }],
    ['WharfError with details', new WharfError('REQUEST_REJECTED', { reason: 'r' }, { details: [{ field: 'a', message: 'm' }] }), 400, { success: false, error: 'Bad request: r', details: [{ field: 'a', message: 'm' }] }],
    ['501 has no traceId', new WharfError('HANDLER_NOT_IMPLEMENTED', { kind: 'SQL' }), 501, { success: false, error: 'SQL endpoints are not implemented yet in this version of Wharf.' }],
    ['body too large', fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413), 413, { success: false, error: 'Request body is too large (limit 1024 bytes).' }],
    ['invalid media type', fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415), 415, { success: false, error: "Content-Type 'text/x' is not supported." }],
    ['fastify invalid JSON', fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400), 400, { success: false, error: 'Invalid JSON body: the body could not be parsed.' }],
    ['fastify empty JSON', fastifyError('FST_ERR_CTP_EMPTY_JSON_BODY', 400), 400, { success: false, error: "Request body is empty but Content-Type is 'application/json'." }],
    ['content length', fastifyError('FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400), 400, { success: false, error: 'Request body size did not match Content-Length.' }],
    ['QUERY without content type', fastifyError('FST_ERR_ROUTE_MISSING_CONTENT_TYPE', 400), 415, { success: false, error: 'QUERY requires Content-Type: application/json' }],
    ['other fastify 4xx keeps its status', fastifyError('FST_ERR_SOMETHING', 431, 'Headers too big'), 431, { success: false, error: 'Bad request: Headers too big' }],
    ['plain Error', new Error('secret detail'), 500, { success: false, error: INTERNAL_ERROR_MESSAGE, traceId: 'trace-1' }],
    ['non-FST 4xx-looking error is internal', fastifyError('ECONNRESET', 400), 500, { success: false, error: INTERNAL_ERROR_MESSAGE, traceId: 'trace-1' }],
    ['thrown string', 'oops', 500, { success: false, error: INTERNAL_ERROR_MESSAGE, traceId: 'trace-1' }],
    ['internal WharfError', new WharfError('INTERNAL_HANDLER_NO_RESPONSE', { kind: 'sql' }), 500, { success: false, error: INTERNAL_ERROR_MESSAGE, traceId: 'trace-1' }],
  ])('%s', (_name, error, status, body) => {
    const response = toErrorResponse(error, FACTS);
    expect({ status: response.status, body: response.body, internal: response.internal }).toEqual({
      status,
      body,
      internal: status === 500,
    });
  });

  it('carries the error headers (Allow, Retry-After)', () => {
    const error = new WharfError('ROUTING_METHOD_NOT_ALLOWED', { method: 'PUT' }, { headers: { allow: 'GET' } });
    expect(toErrorResponse(error, FACTS).headers).toEqual({ allow: 'GET' });
  });
});
