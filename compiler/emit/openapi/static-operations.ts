/**
 * Static endpoints: GET returns the content file in its type; QUERY filters it with a JSON body, or
 * (EnableFiltering off) answers like GET with no options in its body.
 */
import type { StaticEndpoint } from '../../../runtime/contract/index.js';
import { errorResponses, ref } from './components.js';
import type { ErrorStatus } from './components.js';
import { bodySchemaFor } from './media-types.js';
import { basePath, content, jsonBody, odataParameters, ODATA_READ } from './operation-spec.js';
import type { KindOperations, OperationSpec } from './operation-spec.js';

const ERRORS: ErrorStatus[] = [400, 401, 403, 404, 406, 500, 503];

export function staticOperations(model: StaticEndpoint): KindOperations {
  const ok = { 200: { description: 'The content.', content: content(model.contentType, bodySchemaFor(model.contentType)) } };
  const operations: OperationSpec[] = [];
  if (model.methods.includes('GET')) {
    operations.push({
      path: basePath(model),
      pathParameters: [],
      method: 'GET',
      variant: null,
      notes: [],
      operation: {
        ...(model.enableFiltering ? { parameters: odataParameters([...ODATA_READ, 'Apply']) } : {}),
        responses: { ...ok, ...errorResponses(ERRORS) },
      },
    });
  }
  if (model.methods.includes('QUERY')) {
    operations.push({
      path: basePath(model),
      pathParameters: [],
      method: 'QUERY',
      variant: null,
      notes: [],
      operation: {
        requestBody: model.enableFiltering
          ? jsonBody(ref('schemas', 'QueryBody'), 'The query options, as the `$`-parameters of GET.')
          : {
              required: false,
              content: content('application/json', { type: 'object', maxProperties: 0 }),
              description: 'None, or `{}`: EnableFiltering is off, so QUERY answers like GET; a query option is a 400.',
            },
        responses: { ...ok, ...errorResponses([...ERRORS, 415]) },
      },
    });
  }
  return { operations, schemas: {} };
}
