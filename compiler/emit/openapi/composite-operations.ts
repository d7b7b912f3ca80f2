/** Composite endpoints: POST runs the flow with a JSON object body; legacy aliases are noted. */
import type { CompositeEndpoint } from '../../../runtime/contract/index.js';
import { errorResponses } from './components.js';
import type { ErrorStatus } from './components.js';
import { basePath, jsonBody, jsonResponse } from './operation-spec.js';
import type { KindOperations } from './operation-spec.js';

const ERRORS: ErrorStatus[] = [400, 401, 403, 404, 422, 500, 503];

export function compositeOperations(model: CompositeEndpoint): KindOperations {
  if (!model.methods.includes('POST')) return { operations: [], schemas: {} };
  const notes = [
    ...(model.description === null ? [] : [model.description]),
    ...model.routeAliases.map((alias) => `Also reachable at \`/api/{env}/${alias}\`.`),
  ];
  return {
    operations: [
      {
        path: basePath(model),
        pathParameters: [],
        method: 'POST',
        variant: null,
        notes,
        operation: {
          requestBody: jsonBody({ type: 'object' }, 'Input of the flow; steps read their `SourceProperty` or `ArrayProperty` from it.'),
          responses: { 200: jsonResponse('The response of the final step.', {}), ...errorResponses(ERRORS) },
        },
      },
    ],
    schemas: {},
  };
}
