/** Webhook endpoints: POST `/{webhookId}` stores the payload; the id must be on the allow-list. */
import type { SchemaObject } from 'openapi3-ts/oas32';
import type { WebhookEndpoint } from '../../../runtime/contract/index.js';
import { compareCodeUnits } from '../canonical-json.js';
import { errorResponses } from './components.js';
import type { ErrorStatus } from './components.js';
import { basePath, jsonBody, jsonResponse, pathParameter } from './operation-spec.js';
import type { KindOperations } from './operation-spec.js';

const ERRORS: ErrorStatus[] = [400, 401, 403, 404, 500, 503];

export function webhookOperations(model: WebhookEndpoint): KindOperations {
  if (!model.methods.includes('POST')) return { operations: [], schemas: {} };
  const ids = [...model.webhookIds].sort(compareCodeUnits);
  // An empty `enum` is invalid JSON Schema: without ids every call is a 404, said in words.
  const idSchema: SchemaObject = ids.length > 0 ? { type: 'string', enum: ids } : { type: 'string' };
  const idText = ids.length > 0 ? 'Webhook id (one of the allowed ids).' : 'Webhook id. No ids are configured: every call returns 404.';
  return {
    operations: [
      {
        path: `${basePath(model)}/{webhookId}`,
        pathParameters: [pathParameter('webhookId', idText, idSchema)],
        method: 'POST',
        variant: null,
        notes: [],
        operation: {
          requestBody: jsonBody({}, 'The webhook payload, stored as received.'),
          responses: { 200: jsonResponse('Payload stored.', { type: 'object' }), ...errorResponses(ERRORS) },
        },
      },
    ],
    schemas: {},
  };
}
