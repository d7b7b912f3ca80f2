/**
 * Shared parts of openapi.json: the error body, one response per error status (spec: Errors),
 * the `env` path parameter, the OData query parameters and the bearer security scheme.
 * Operations reference these by `$ref`, so each error is described once.
 */
import type {
  ComponentsObject,
  HeaderObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  ResponsesObject,
} from 'openapi3-ts/oas32';
import { MAX_TOP, queryBodySchema } from '../route-schemas.js';

export const INTERNAL_ERROR_TEXT = 'Error processing. Please check the logs for more details.';

/** Error statuses used by operations, with their component name and description. */
export const ERROR_RESPONSES = {
  400: ['BadRequest', 'Invalid format or query parameters, or environment not on the allowed list.'],
  401: ['Unauthorized', 'Missing or invalid bearer token.'],
  403: ['Forbidden', 'The token lacks the scope or the environment access, or the target is blocked.'],
  404: ['NotFound', 'The endpoint or the resource does not exist.'],
  406: ['NotAcceptable', 'The content cannot be served in a type the `Accept` header allows.'],
  409: ['Conflict', 'The resource already exists (a file, or a record with the same unique value) or is still referenced.'],
  413: ['PayloadTooLarge', 'The request body or upload exceeds the size limit.'],
  415: ['UnsupportedMediaType', 'The request body has an unsupported media type (QUERY and write bodies must be `application/json`).'],
  416: ['RangeNotSatisfiable', 'The requested byte range cannot be served.'],
  422: ['ValidationFailed', 'Validation failure; `details` lists the fields.'],
  429: ['TooManyRequests', 'Rate limit exceeded; retry after the number of seconds in `Retry-After`.'],
  500: ['InternalServerError', 'Internal error; quote the `traceId` when reporting it.'],
  503: ['ServiceUnavailable', 'The endpoint is disabled (`Enabled` false); retry after `Retry-After` seconds.'],
} as const satisfies Record<number, readonly [string, string]>;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** `$ref`s to the shared error responses; 429 is added to every operation (spec: any endpoint). */
export function errorResponses(statuses: readonly ErrorStatus[]): ResponsesObject {
  const out: ResponsesObject = {};
  for (const status of [...statuses, 429 as const]) out[String(status)] = ref('responses', ERROR_RESPONSES[status][0]);
  return out;
}

export function ref(section: keyof ComponentsObject, name: string): ReferenceObject {
  return { $ref: `#/components/${section}/${name}` };
}

export const ODATA_PARAMETERS = {
  Select: { name: '$select', description: 'Comma-separated names of the fields to return.', schema: { type: 'string' } },
  Filter: {
    name: '$filter',
    description: "Filter expression, e.g. `Name eq 'text' and Price gt 10`.",
    schema: { type: 'string' },
  },
  OrderBy: {
    name: '$orderby',
    description: 'Comma-separated `field [asc|desc]` list (default `asc`); applied before paging.',
    schema: { type: 'string' },
  },
  Top: {
    name: '$top',
    description: `Page size, at most ${MAX_TOP}.`,
    schema: { type: 'integer', minimum: 0, maximum: MAX_TOP },
  },
  Skip: { name: '$skip', description: 'Number of rows to skip; not negative.', schema: { type: 'integer', minimum: 0 } },
  Count: { name: '$count', description: 'Also return the total number of matching rows.', schema: { type: 'boolean' } },
  SkipToken: {
    name: '$skiptoken',
    description: 'Keyset paging (`Paging: Keyset`): the opaque token of the `nextLink`; it starts the page after the previous page\'s last row. Not with `$skip`; an altered token, or one of another endpoint or `$orderby`, is a 400.',
    schema: { type: 'string' },
  },
  Apply: {
    name: '$apply',
    description:
      'Aggregation: `filter(...)` transformations, then `groupby((Col,...),aggregate(Col with sum|average|min|max|countdistinct as Alias, $count as Alias))` or `aggregate(...)`; `$orderby`, `$top` and `$skip` then apply to the result. Not with `$select`, `$filter`, `$expand` or `$count`. Masked or removed columns are refused.',
    schema: { type: 'string' },
  },
  Expand: {
    name: '$expand',
    description: 'Comma-separated navigation properties to include (SQL tables and views).',
    schema: { type: 'string' },
  },
} as const satisfies Record<string, Omit<ParameterObject, 'in'>>;

export type ODataParameter = keyof typeof ODATA_PARAMETERS;

export const ENV_PARAMETER = 'Environment';

export function buildComponents(): ComponentsObject {
  const parameters: Record<string, ParameterObject> = {
    [ENV_PARAMETER]: {
      name: 'env',
      in: 'path',
      required: true,
      description: 'Environment name (a folder under `environments/` that the server allows).',
      schema: { type: 'string' },
    },
  };
  for (const [key, param] of Object.entries(ODATA_PARAMETERS)) parameters[key] = { ...param, in: 'query' };
  const responses: Record<string, ResponseObject> = {};
  for (const [status, [name, description]] of Object.entries(ERROR_RESPONSES)) {
    responses[name] = errorResponse(Number(status), description);
  }
  return {
    schemas: { Error: errorSchema(), QueryBody: queryBodySchema() },
    responses,
    parameters,
    headers: { RetryAfter: retryAfter() },
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access token: `Authorization: Bearer <token>`.' } },
  };
}

function errorSchema(): Record<string, unknown> {
  return {
    type: 'object',
    required: ['success', 'error'],
    properties: {
      success: { type: 'boolean', enum: [false] },
      error: { type: 'string' },
      details: {
        type: 'array',
        description: 'Present on 422.',
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: { field: { type: 'string' }, message: { type: 'string' } },
        },
      },
      traceId: { type: 'string', description: 'Present on 500.' },
    },
  };
}

function errorResponse(status: number, description: string): ResponseObject {
  const response: ResponseObject = {
    description,
    content: { 'application/json': { schema: ref('schemas', 'Error'), ...example(status) } },
  };
  if (status === 429 || status === 503) response.headers = { 'Retry-After': ref('headers', 'RetryAfter') };
  return response;
}

/** Examples only where the spec fixes the text. */
function example(status: number): { example?: unknown } {
  if (status === 500) return { example: { success: false, error: INTERNAL_ERROR_TEXT, traceId: '0HN7T3V1Q2J5K:00000001' } };
  if (status === 400) return { example: { success: false, error: `$top cannot exceed ${MAX_TOP}` } };
  return {};
}

function retryAfter(): HeaderObject {
  return { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } };
}
