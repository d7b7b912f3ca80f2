/** Webhook endpoints: POST `/{webhookId}` stores the payload; the id must be on the allow-list. */
import type { SchemaObject } from 'openapi3-ts/oas32';
import type { WebhookEndpoint } from '../../../runtime/contract/index.js';
import { compareCodeUnits } from '../canonical-json.js';
import { errorResponses } from './components.js';
import type { ErrorStatus } from './components.js';
import { basePath, jsonBody, jsonResponse, pathParameter } from './operation-spec.js';
import type { KindOperations } from './operation-spec.js';

const ERRORS: ErrorStatus[] = [400, 401, 403, 404, 413, 415, 500, 503];

const STORED: SchemaObject = {
  type: 'object',
  required: ['success', 'message', 'result', 'id'],
  properties: {
    success: { type: 'boolean', const: true },
    message: { type: 'string', const: 'Webhook processed successfully.' },
    result: { type: 'null' },
    id: { description: 'Id of the stored record (the table\'s Id column).' },
  },
};

export function webhookOperations(model: WebhookEndpoint): KindOperations {
  if (!model.methods.includes('POST')) return { operations: [], schemas: {} };
  const ids = [...model.webhookIds].sort(compareCodeUnits);
  // Without configured ids any id is accepted (an empty `enum` would be invalid JSON Schema anyway).
  const idSchema: SchemaObject = ids.length > 0 ? { type: 'string', enum: ids } : { type: 'string', maxLength: 255 };
  const idText = ids.length > 0 ? 'Webhook id (one of the allowed ids, case-insensitive).' : 'Webhook id. No ids are configured: any id is accepted.';
  return {
    operations: [
      {
        path: `${basePath(model)}/{webhookId}`,
        pathParameters: [pathParameter('webhookId', idText, idSchema)],
        method: 'POST',
        variant: null,
        notes: [],
        operation: {
          requestBody: jsonBody({}, 'The webhook payload: any JSON value, stored as the text received.'),
          responses: { 200: jsonResponse('Payload stored.', STORED), ...errorResponses(ERRORS) },
        },
      },
    ],
    schemas: {},
  };
}
