/**
 * Proxy endpoints: every configured method on the endpoint path, forwarded to the upstream;
 * DELETE takes the record id as a path segment (forwarded per DeletePatterns). Bodies and
 * responses pass through in the endpoint's content type, so their schema is any value.
 */
import type { HttpMethod, ProxyEndpoint } from '../../../runtime/contract/index.js';
import { errorResponses } from './components.js';
import type { ErrorStatus } from './components.js';
import { bodySchemaFor } from './media-types.js';
import { BY_ID, basePath, content, odataParameters, ODATA_READ, pathParameter } from './operation-spec.js';
import type { KindOperations, OperationSpec } from './operation-spec.js';

const ERRORS: ErrorStatus[] = [400, 401, 403, 404, 500, 503];
const WITH_BODY: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH', 'MERGE', 'QUERY'];

export function proxyOperations(model: ProxyEndpoint): KindOperations {
  const schema = bodySchemaFor(model.contentType) ?? {};
  const passThrough = { description: 'The upstream response, passed through (status, headers and body).', content: content(model.contentType, schema) };
  const operations: OperationSpec[] = model.methods.map((method) => {
    const byId = method === 'DELETE';
    return {
      path: byId ? `${basePath(model)}/{id}` : basePath(model),
      pathParameters: byId ? [pathParameter('id', 'Id of the record to delete, forwarded to the upstream.')] : [],
      method,
      variant: byId ? BY_ID : null,
      notes: [],
      operation: {
        ...(method === 'GET' && model.supportsOData ? { parameters: odataParameters(ODATA_READ) } : {}),
        ...(WITH_BODY.includes(method) ? { requestBody: { required: false, content: content(model.contentType, schema) } } : {}),
        responses: { 200: passThrough, ...errorResponses(ERRORS) },
      },
    };
  });
  return { operations, schemas: {} };
}
