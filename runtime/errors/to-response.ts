/**
 * Turns ANY error into the spec's error body `{success:false, error, details?, traceId?}`.
 * Pure: the fastify error handler (error-handler.ts) calls it and does the logging.
 */
import { INTERNAL_ERROR_MESSAGE } from './registry.js';
import type { ErrorCode } from './registry.js';
import { WharfError } from './wharf-error.js';
import type { ErrorDetail } from './wharf-error.js';

export interface ErrorBody {
  readonly success: false;
  readonly error: string;
  readonly details?: readonly ErrorDetail[];
  readonly traceId?: string;
}

export interface ErrorResponse {
  readonly status: number;
  readonly code: ErrorCode;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;
  /** True when the error is a server fault: logged with its stack under the traceId. */
  readonly internal: boolean;
}

export interface ErrorRequestFacts {
  readonly traceId: string;
  readonly contentType: string | undefined;
  readonly bodyLimit: number;
}

interface FrameworkError {
  readonly code?: unknown;
  readonly statusCode?: unknown;
  readonly message?: unknown;
}

/** fastify's own errors (lib/errors.js) that are the client's fault, mapped to registry codes. */
function fromFramework(error: FrameworkError, facts: ErrorRequestFacts): WharfError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new WharfError('REQUEST_INVALID_JSON', { reason: 'the body could not be parsed.' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new WharfError('REQUEST_EMPTY_JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new WharfError('REQUEST_BODY_TOO_LARGE', { limit: facts.bodyLimit });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new WharfError('REQUEST_UNSUPPORTED_MEDIA_TYPE', { contentType: facts.contentType ?? '' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new WharfError('REQUEST_CONTENT_LENGTH_MISMATCH');
    case 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE':
      return new WharfError('REQUEST_QUERY_CONTENT_TYPE');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_INVALID_URL':
      return new WharfError('REQUEST_INVALID_URL', { reason: 'malformed percent-encoding.' });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new WharfError('REQUEST_URL_TOO_LONG');
    default:
      break;
  }
  // Any other client error raised by fastify or a plugin (4xx status, FST_ code): keep its status,
  // never turn it into a 500; its message is written by the framework, not by user input.
  const status = typeof error.statusCode === 'number' ? error.statusCode : 0;
  if (status >= 400 && status < 500 && typeof error.code === 'string' && error.code.startsWith('FST_')) {
    return new WharfError('REQUEST_REJECTED', { reason: String(error.message ?? error.code) });
  }
  return null;
}

export function toErrorResponse(error: unknown, facts: ErrorRequestFacts): ErrorResponse {
  const known =
    error instanceof WharfError
      ? error
      : typeof error === 'object' && error !== null
        ? fromFramework(error as FrameworkError, facts)
        : null;
  if (known && known.status < 500) {
    const status = known.code === 'REQUEST_REJECTED' ? frameworkStatus(error, known.status) : known.status;
    const body: ErrorBody = known.details
      ? { success: false, error: known.message, details: known.details }
      : { success: false, error: known.message };
    return { status, code: known.code, body, headers: known.headers, internal: false };
  }
  if (known && known.status !== 500) {
    // 501, 503 ...: deliberate server answers, not faults; no traceId needed. 502/504 (an upstream
    // failed) carry one: the failed attempts are logged under it.
    const traced = known.status === 502 || known.status === 504;
    return {
      status: known.status,
      code: known.code,
      body: traced ? { success: false, error: known.message, traceId: facts.traceId } : { success: false, error: known.message },
      headers: known.headers,
      internal: false,
    };
  }
  return {
    status: 500,
    code: 'INTERNAL_ERROR',
    body: { success: false, error: INTERNAL_ERROR_MESSAGE, traceId: facts.traceId },
    headers: {},
    internal: true,
  };
}

function frameworkStatus(error: unknown, fallback: number): number {
  const status = (error as FrameworkError).statusCode;
  return typeof status === 'number' ? status : fallback;
}
