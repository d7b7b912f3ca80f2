/**
 * The one error registry of the runtime: every error Wharf can answer or refuse to start with has a
 * stable code here, grouped by area, with its HTTP status and message template next to it.
 * Codes are never reused or renamed; docs/errors.md lists every one (errors/registry-docs.test.ts)
 * and the retired ones.
 * Templates use `{name}` placeholders; WharfError checks the parameter names at compile time.
 */

export interface ErrorDefinition {
  readonly area: ErrorArea;
  readonly status: number;
  readonly message: string;
}

export const ERROR_AREAS = [
  'request', 'auth', 'traffic', 'routing', 'handler', 'sql', 'webhook', 'files', 'static',
  'proxy', 'composite', 'reference', 'internal', 'load', 'settings', 'server', 'console', 'sync',
] as const;
export type ErrorArea = (typeof ERROR_AREAS)[number];

/** Fixed text of every 500 (spec): details go to the log under the same traceId. */
export const INTERNAL_ERROR_MESSAGE = 'Error processing. Please check the logs for more details.';

export const ERROR_REGISTRY = {
  // request: the HTTP request itself is unusable (URL, headers, body)
  REQUEST_INVALID_JSON: { area: 'request', status: 400, message: 'Invalid JSON body: {reason}' },
  REQUEST_EMPTY_JSON: {
    area: 'request',
    status: 400,
    message: "Request body is empty but Content-Type is 'application/json'.",
  },
  REQUEST_BODY_TOO_LARGE: {
    area: 'request',
    status: 413,
    message: 'Request body is too large (limit {limit} bytes).',
  },
  REQUEST_UNSUPPORTED_MEDIA_TYPE: {
    area: 'request',
    status: 415,
    message: "Content-Type '{contentType}' is not supported.",
  },
  REQUEST_UNSUPPORTED_ENCODING: {
    area: 'request',
    status: 415,
    message: "Content-Encoding '{encoding}' is not supported.",
  },
  REQUEST_CONTENT_LENGTH_MISMATCH: {
    area: 'request',
    status: 400,
    message: 'Request body size did not match Content-Length.',
  },
  REQUEST_INVALID_URL: { area: 'request', status: 400, message: 'Invalid request URL: {reason}' },
  REQUEST_URL_TOO_LONG: { area: 'request', status: 414, message: 'Request URL is too long.' },
  REQUEST_QUERY_CONTENT_TYPE: {
    area: 'request',
    status: 415,
    message: 'QUERY requires Content-Type: application/json',
  },
  REQUEST_REJECTED: { area: 'request', status: 400, message: 'Bad request: {reason}' },
  REQUEST_MALFORMED: { area: 'request', status: 400, message: 'Malformed HTTP request: {reason}' },
  REQUEST_HEADERS_TOO_LARGE: {
    area: 'request',
    status: 431,
    message: 'Request line and headers are too large (limit {limit} bytes).',
  },
  REQUEST_HOST_NOT_ALLOWED: {
    area: 'request',
    status: 400,
    message: 'This server does not answer for the host named in the Host header (protection against DNS rebinding): add it to {setting} to allow it.',
  },
  REQUEST_CONNECT_REFUSED: { area: 'request', status: 400, message: 'CONNECT is not supported: this server is not a forward proxy.' },
  REQUEST_TIMEOUT: { area: 'request', status: 408, message: 'The request was not received in time.' },
  REQUEST_BODY_TIMEOUT: { area: 'request', status: 408, message: 'The request body did not arrive in time.' },

  // auth: bearer tokens (401, with WWW-Authenticate) and what a token may call (403)
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
  AUTH_STORE_UNAVAILABLE: { area: 'auth', status: 503, message: 'The token store is not available. Retry shortly.' },
  AUTH_JWKS_UNAVAILABLE: {
    area: 'auth',
    status: 503,
    message: "The identity provider's signing keys are not available. Retry shortly.",
  },

  // traffic: rate limits per client IP and per token (429, with Retry-After and X-RateLimit-*)
  TRAFFIC_RATE_LIMITED: {
    area: 'traffic',
    status: 429,
    message: 'Too many requests. Retry after {seconds} seconds.',
  },

  // routing: environment and endpoint resolution, the checks before a handler runs
  ROUTING_ROUTE_NOT_FOUND: { area: 'routing', status: 404, message: "Route '{method} {path}' not found" },
  ROUTING_ENDPOINT_NOT_FOUND: { area: 'routing', status: 404, message: "Endpoint '{path}' not found" },
  ROUTING_ENV_NOT_ALLOWED: { area: 'routing', status: 400, message: "Environment '{env}' is not allowed." },
  ROUTING_ENV_NOT_CONFIGURED: {
    area: 'routing',
    status: 400,
    message: "Environment '{env}' is not configured.",
  },
  ROUTING_ENV_NOT_ALLOWED_FOR_ENDPOINT: {
    area: 'routing',
    status: 400,
    message: "Environment '{env}' is not allowed for this endpoint.",
  },
  ROUTING_ENDPOINT_DISABLED: {
    area: 'routing',
    status: 503,
    message: 'This endpoint is temporarily disabled.',
  },
  ROUTING_METHOD_NOT_ALLOWED: {
    area: 'routing',
    status: 405,
    message: "Method '{method}' is not allowed for this endpoint.",
  },
  ROUTING_INVALID_PATH_SEGMENT: {
    area: 'routing',
    status: 400,
    message: 'Invalid path segment: {reason}',
  },

  // handler: endpoint kinds
  HANDLER_NOT_IMPLEMENTED: {
    area: 'handler',
    status: 501,
    message: '{kind} endpoints are not implemented yet in this version of Wharf.',
  },

  // sql: the SQL read path (OData options, function parameters, keys); texts are the spec's where it has them
  SQL_BAD_REQUEST: { area: 'sql', status: 400, message: '{reason}' },
  SQL_NOT_FOUND: { area: 'sql', status: 404, message: '{reason}' },
  SQL_UNKNOWN_COLUMN: { area: 'sql', status: 400, message: '{option}: unknown column {column} at position {position}' },
  SQL_RECORD_NOT_FOUND: { area: 'sql', status: 404, message: 'No record found with {keyName} = {id}' },
  SQL_FILTER_VALUE_INVALID: { area: 'sql', status: 400, message: '$filter: a value does not match the type of its column' },
  SQL_APPLY_VALUE_INVALID: { area: 'sql', status: 400, message: '$apply: a value does not match the type of its column' },
  SQL_PARAMETER_VALUE_INVALID: { area: 'sql', status: 400, message: 'A parameter value does not match its SQL type' },
  SQL_PARAMETER_MISSING: { area: 'sql', status: 400, message: "Required parameter '{name}' not provided" },
  SQL_PARAMETER_INVALID: { area: 'sql', status: 400, message: "Invalid value for parameter '{name}'" },
  SQL_PARAMETER_TYPE_INVALID: { area: 'sql', status: 400, message: "Invalid value for parameter '{name}': expected {sqlType}" },
  SQL_SKIPTOKEN_INVALID: {
    area: 'sql',
    status: 400,
    message: '$skiptoken is not valid for this request (altered, expired or from another endpoint or ordering)',
  },
  SQL_EXPAND_UNDER_RULES: {
    area: 'sql',
    status: 400,
    message: "$expand: '{name}' cannot be expanded: its endpoint has Authorization rules (read it on its own)",
  },
  // sql writes: validation before any SQL runs (details list every failure), then the database's refusals
  SQL_VALIDATION_FAILED: { area: 'sql', status: 422, message: 'Validation failed' },
  SQL_BODY_EMPTY: { area: 'sql', status: 400, message: 'Request body cannot be empty' },
  SQL_BODY_NOT_OBJECT: { area: 'sql', status: 400, message: 'Request body must be a JSON object' },
  SQL_KEY_REQUIRED: { area: 'sql', status: 400, message: 'ID field is required for this operation' },
  SQL_KEY_MISMATCH: { area: 'sql', status: 400, message: 'The {keyName} in the body does not match the key in the URL' },
  SQL_KEY_AMBIGUOUS: {
    area: 'sql',
    status: 400,
    message: 'The record key is given more than once: give it once, in the path, as ?id= or (DELETE) as a JSON array body',
  },
  SQL_NOTHING_TO_UPDATE: { area: 'sql', status: 400, message: 'The request body has no updatable columns' },
  SQL_OUTSIDE_ROW_FILTER: { area: 'sql', status: 422, message: 'Validation failed' },
  SQL_ROW_FILTER_BATCH: {
    area: 'sql',
    status: 400,
    message: 'Batch writes are not available to callers under an Authorization RowFilter: write one record per request',
  },
  SQL_ROW_FILTER_PROCEDURE: { area: 'sql', status: 400, message: 'Authorization RowFilter cannot apply to procedure writes' },
  SQL_WRITE_NOT_FOUND: { area: 'sql', status: 404, message: 'Record not found' },
  SQL_BATCH_NOT_FOUND: { area: 'sql', status: 404, message: 'Record not found: nothing was deleted' },
  SQL_UNIQUE_VIOLATION: { area: 'sql', status: 409, message: 'A record with this {column} already exists{row}' },
  SQL_DUPLICATE_RECORD: { area: 'sql', status: 409, message: 'A record with these values already exists{row}' },
  SQL_STILL_REFERENCED: { area: 'sql', status: 409, message: 'The record is still referenced by other records{row}' },
  SQL_FOREIGN_KEY_VIOLATION: { area: 'sql', status: 422, message: 'Validation failed' },
  SQL_NOT_NULL_VIOLATION: { area: 'sql', status: 422, message: 'Validation failed' },
  SQL_CHECK_VIOLATION: { area: 'sql', status: 422, message: 'Validation failed' },
  SQL_READ_ONLY_COLUMN: { area: 'sql', status: 422, message: 'Validation failed' },
  SQL_COLUMN_VALUE_INVALID: { area: 'sql', status: 400, message: 'A value does not match the type or size of its column' },
  SQL_PROCEDURE_REFUSED: { area: 'sql', status: 400, message: '{message}' },
  // sql batch writes: more rows than Sql:MaxBatchRows / the endpoint's MaxBatchRows, or values than the database takes
  SQL_BATCH_TOO_LARGE: { area: 'sql', status: 413, message: '{reason}' },

  // webhook: inbound payloads stored in a table
  WEBHOOK_ID_NOT_CONFIGURED: { area: 'webhook', status: 404, message: "Webhook ID '{id}' is not configured." },
  WEBHOOK_ID_REQUIRED: { area: 'webhook', status: 400, message: 'Webhook id is required: POST to the endpoint path followed by /<id>.' },
  WEBHOOK_BODY_NOT_JSON: { area: 'webhook', status: 400, message: 'Webhook payload must be JSON.' },

  // files: Files endpoints (upload, download, list, delete); texts are the spec's where it has them
  FILES_NOT_FOUND: { area: 'files', status: 404, message: 'File not found.' },
  FILES_MISSING_FILE_PART: {
    area: 'files',
    status: 400,
    message: "No file was uploaded. Send it as multipart/form-data in the field 'file'.",
  },
  FILES_MALFORMED_MULTIPART: { area: 'files', status: 400, message: 'Malformed multipart/form-data body: {reason}' },
  FILES_INVALID_NAME: { area: 'files', status: 400, message: 'Invalid file name: {reason}' },
  FILES_BAD_OVERWRITE: { area: 'files', status: 400, message: "overwrite must be 'true' or 'false'." },
  FILES_EXTENSION_NOT_ALLOWED: {
    area: 'files',
    status: 415,
    message: 'Files with extension {extension} are not allowed for this endpoint.',
  },
  FILES_EXTENSION_BLOCKED: {
    area: 'files',
    status: 415,
    message: 'Files with extension {extension} are blocked on this server.',
  },
  FILES_ALREADY_EXISTS: {
    area: 'files',
    status: 409,
    message: 'File {name} already exists. Use overwrite=true to replace it.',
  },
  FILES_TOO_LARGE: { area: 'files', status: 413, message: 'File exceeds the maximum size of {limit} bytes.' },
  FILES_RANGE_NOT_SATISFIABLE: {
    area: 'files',
    status: 416,
    message: 'Range not satisfiable: the file has {size} bytes.',
  },
  FILES_BAD_PAGING: { area: 'files', status: 400, message: '{reason}' },

  // static: Static endpoints (content negotiation, in-memory OData)
  STATIC_NOT_ACCEPTABLE: {
    area: 'static',
    status: 406,
    message: "Endpoint provides '{contentType}' but client accepts '{accept}'",
  },
  STATIC_BAD_REQUEST: { area: 'static', status: 400, message: '{reason}' },
  STATIC_NOT_FOUND: { area: 'static', status: 404, message: 'Not found: {path}' },
  STATIC_CONTENT_UNAVAILABLE: {
    area: 'static',
    status: 500,
    message: 'Static content file {file} could not be read: {reason}',
  },

  // proxy: forwarding to upstream services (502/504 carry a traceId; upstream details only in the log)
  PROXY_UPSTREAM_UNAVAILABLE: { area: 'proxy', status: 502, message: 'The upstream service is unavailable.' },
  PROXY_UPSTREAM_TIMEOUT: { area: 'proxy', status: 504, message: 'The upstream service did not answer in time.' },
  PROXY_TARGET_BLOCKED: { area: 'proxy', status: 403, message: 'Request blocked due to security restrictions' },
  PROXY_RESPONSE_TOO_LARGE: { area: 'proxy', status: 502, message: 'The upstream response is too large to process.' },
  PROXY_RESPONSE_NOT_TRANSFORMABLE: { area: 'proxy', status: 502, message: 'The upstream response could not be transformed.' },
  PROXY_INVALID_GUID: {
    area: 'proxy',
    status: 400,
    message: "'{id}' is not a GUID; this endpoint deletes by ODataGuid.",
  },

  // composite: input validation (422 with details) and a failed step (its status, see docs/composite.md)
  COMPOSITE_VALIDATION_FAILED: { area: 'composite', status: 422, message: 'Validation failed' },
  COMPOSITE_STEP_FAILED: { area: 'composite', status: 502, message: "Error executing step '{step}'" },

  // reference: the API reference (/openapi.json, /docs)
  REFERENCE_OPENAPI_MISSING: {
    area: 'reference',
    status: 404,
    message: 'generated/openapi.json is missing. Run wharf build.',
  },

  // internal: anything unexpected; the wire always shows the fixed text plus a traceId
  INTERNAL_ERROR: { area: 'internal', status: 500, message: INTERNAL_ERROR_MESSAGE },
  INTERNAL_HANDLER_NO_RESPONSE: {
    area: 'internal',
    status: 500,
    message: "The {kind} handler returned nothing and sent no response.",
  },

  // load: reading generated/ (startup error, or a failed reload that keeps the last good table)
  LOAD_MANIFEST_MISSING: {
    area: 'load',
    status: 500,
    message: '{file} was not found. Run wharf build.',
  },
  LOAD_MANIFEST_INVALID: { area: 'load', status: 500, message: '{file} is not a valid manifest: {reason}' },
  LOAD_SCHEMA_VERSION: {
    area: 'load',
    status: 500,
    message: '{file} has schema version {found}; this runtime understands {expected}. Run wharf build.',
  },
  LOAD_BUNDLE_FAILED: { area: 'load', status: 500, message: '{file} could not be imported: {reason}' },
  LOAD_BUNDLE_STALE: {
    area: 'load',
    status: 500,
    message: '{file} was built from sources {bundleHash} but the manifest from {manifestHash}. Run wharf build.',
  },
  LOAD_ROUTE_MISMATCH: { area: 'load', status: 500, message: 'generated/ is inconsistent: {reason}. Run wharf build.' },
  LOAD_ROUTE_KEY_CONFLICT: {
    area: 'load',
    status: 500,
    message: "Route key '{key}' is claimed by both '{first}' and '{second}'. Run wharf build.",
  },
  LOAD_OPENAPI_INVALID: { area: 'load', status: 500, message: '{file} is not valid JSON: {reason}' },
  LOAD_ENDPOINT_REFUSED: { area: 'load', status: 500, message: "generated/ endpoint '{id}' is refused: {reason}. Run wharf build." },

  // settings: environments/settings.json, environment variables, environments/<name>/settings.json
  SETTINGS_FILE_INVALID: { area: 'settings', status: 500, message: '{file} is not valid JSON: {reason}' },
  SETTINGS_INVALID_VALUE: { area: 'settings', status: 500, message: "Setting '{key}' (from {source}) {reason}" },
  SETTINGS_UNKNOWN_KEY: { area: 'settings', status: 500, message: "Setting '{key}' (from {source}) is not a known setting.{suggestion}" },
  SETTINGS_ENVIRONMENT_INVALID: { area: 'settings', status: 500, message: '{file}: {reason}' },
  SETTINGS_LISTEN_ADDRESS: { area: 'settings', status: 500, message: '{source} {reason}' },

  // server: the process itself (shutdown, overload, time limits); Retry-After where a retry helps
  SERVER_SHUTTING_DOWN: { area: 'server', status: 503, message: 'The server is shutting down. Retry the request.' },
  SERVER_OVERLOADED: { area: 'server', status: 503, message: 'Too many requests in progress. Retry shortly.' },
  SERVER_HANDLER_TIMEOUT: { area: 'server', status: 503, message: 'The request did not complete in time.' },
  // console: the admin console API under /ui/api (bodies in the console's own shapes, docs/console-api.md)
  CONSOLE_UNAUTHORIZED: { area: 'console', status: 401, message: 'Sign in to the console or send a bearer token with scope *.' },
  CONSOLE_SIGN_IN_FAILED: { area: 'console', status: 401, message: 'Invalid username or password.' },
  CONSOLE_ACCESS_DENIED: { area: 'console', status: 403, message: 'Access denied: {reason}' },
  CONSOLE_NOT_FOUND: { area: 'console', status: 404, message: '{reason}' },
  CONSOLE_CONFLICT: { area: 'console', status: 409, message: '{reason}' },
  CONSOLE_BAD_REQUEST: { area: 'console', status: 400, message: '{reason}' },
  CONSOLE_ACCOUNT_LOCKED: {
    area: 'console',
    status: 429,
    message: 'Too many failed sign-ins for this account. Try again in {seconds} seconds.',
  },
  CONSOLE_VALIDATOR_MISSING: {
    area: 'console',
    status: 503,
    message: 'The endpoint validator is not available ({reason}). Run wharf build.',
  },
  CONSOLE_SSO_FAILED: {
    area: 'console',
    status: 401,
    message: "Single sign-on failed: the identity provider's answer could not be verified. Start the sign-in again.",
  },
  CONSOLE_SSO_UNAVAILABLE: {
    area: 'console',
    status: 503,
    message: 'The single sign-on provider cannot be reached. Try again shortly.',
  },
  CONSOLE_SIGN_IN_RATE_LIMITED: {
    area: 'console',
    status: 429,
    message: 'Too many sign-in attempts from this address. Try again in {seconds} seconds.',
  },
  CONSOLE_TOO_MANY_STREAMS: {
    area: 'console',
    status: 429,
    message: 'Too many event streams are open for this account or token (at most {max}). Close one first.',
  },
  // sync: the sync service's dashboard API under /ui/api on the health port (docs/sync.md)
  SYNC_DASHBOARD_READ_ONLY: {
    area: 'sync',
    status: 403,
    message: 'The sync dashboard is read-only: set WebHost:AdminKey to replay or purge dead letters from it.',
  },
  SYNC_DASHBOARD_UNAUTHORIZED: {
    area: 'sync',
    status: 401,
    message: 'Sign in to the sync dashboard with the administrator key (WebHost:AdminKey) first.',
  },
  SYNC_DASHBOARD_KEY_INVALID: { area: 'sync', status: 401, message: 'The administrator key is not correct.' },
  SYNC_DASHBOARD_CSRF: { area: 'sync', status: 403, message: 'Missing or wrong CSRF token: reload the dashboard and try again.' },
  SYNC_DASHBOARD_BAD_REQUEST: { area: 'sync', status: 400, message: '{reason}' },
  SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED: {
    area: 'sync',
    status: 429,
    message: 'Too many wrong administrator keys. Try again in {seconds} seconds.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;

type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? P | Placeholders<Rest>
  : never;

/** The parameters a code's template needs, e.g. `{ env: string }` for ROUTING_ENV_NOT_ALLOWED. */
export type ErrorParams<C extends ErrorCode> = {
  readonly [P in Placeholders<(typeof ERROR_REGISTRY)[C]['message']>]: string | number;
};

export function formatErrorMessage<C extends ErrorCode>(code: C, params: ErrorParams<C>): string {
  const template: string = ERROR_REGISTRY[code].message;
  const values = params as Readonly<Record<string, string | number>>;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}
