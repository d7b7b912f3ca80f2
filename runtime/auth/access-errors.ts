/**
 * Error codes of access control (auth) and traffic (rate limits), in the shape of
 * runtime/errors/registry.ts, to be merged into ERROR_REGISTRY (areas `auth`, `traffic`).
 * Until then AccessError carries the same fields as WharfError (code, status, message, headers)
 * and accessErrorResponse() renders the spec body; after the merge, accessError() can return
 * `new WharfError(code, params, { headers })` and nothing else changes.
 */

export const ACCESS_ERROR_REGISTRY = {
  AUTH_TOKEN_MISSING: { area: 'auth', status: 401, message: 'Authentication required' },
  AUTH_TOKEN_INVALID: { area: 'auth', status: 401, message: 'Invalid or expired token' },
  AUTH_ENVIRONMENT_DENIED: {
    area: 'auth',
    status: 403,
    message: "Token is not allowed to use environment '{env}'",
  },
  AUTH_SCOPE_DENIED: {
    area: 'auth',
    status: 403,
    message: "Token is not allowed to call {method} on '{endpoint}'",
  },
  TRAFFIC_RATE_LIMITED: {
    area: 'traffic',
    status: 429,
    message: 'Too many requests. Retry after {seconds} seconds.',
  },
} as const;

export type AccessErrorCode = keyof typeof ACCESS_ERROR_REGISTRY;

export class AccessError extends Error {
  override readonly name = 'AccessError';
  readonly status: number;
  readonly area: string;

  constructor(
    readonly code: AccessErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.status = ACCESS_ERROR_REGISTRY[code].status;
    this.area = ACCESS_ERROR_REGISTRY[code].area;
  }
}

export function accessError(
  code: AccessErrorCode,
  params: Readonly<Record<string, string | number>> = {},
  headers: Readonly<Record<string, string>> = {},
): AccessError {
  const message = ACCESS_ERROR_REGISTRY[code].message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
  return new AccessError(code, message, headers);
}

export function isAccessError(value: unknown): value is AccessError {
  return value instanceof AccessError;
}

/** The spec body and headers for an AccessError. */
export function accessErrorResponse(error: AccessError): {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: { success: false; error: string };
} {
  return { status: error.status, headers: error.headers, body: { success: false, error: error.message } };
}
