/** HTTP methods an endpoint can be configured with (spec: AllowedMethods values). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'MERGE', 'QUERY'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const ENDPOINT_KINDS = ['sql', 'proxy', 'composite', 'static', 'webhook', 'files'] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

/**
 * The spec's method support matrix: which methods each endpoint kind can ever serve.
 * Configured methods are intersected with this; anything else is 405.
 * Webhook is POST only (QUERY on Webhook is 405 by the spec).
 */
export const METHOD_MATRIX: Readonly<Record<EndpointKind, readonly HttpMethod[]>> = {
  sql: ['GET', 'QUERY', 'POST', 'PUT', 'PATCH', 'DELETE', 'MERGE'],
  proxy: ['GET', 'QUERY', 'POST', 'PUT', 'PATCH', 'DELETE', 'MERGE'],
  composite: ['POST'],
  static: ['GET', 'QUERY'],
  files: ['GET', 'POST', 'DELETE'],
  webhook: ['POST'],
};

export function isHttpMethod(value: string): value is HttpMethod {
  return (HTTP_METHODS as readonly string[]).includes(value);
}
