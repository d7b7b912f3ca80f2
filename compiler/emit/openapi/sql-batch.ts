/**
 * Batch writes of a Table-mode SQL endpoint in the OpenAPI document: POST takes one record or a
 * JSON array of them (at most MaxBatchRows, else the server's Sql:MaxBatchRows), answered with
 * one result or the list; DELETE without a key takes a JSON array of keys (all or none).
 */
import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas32';
import type { SqlEndpoint } from '../../../runtime/contract/index.js';

export function takesBatches(model: SqlEndpoint): boolean {
  return model.writeMode === 'Table' && model.primaryKey !== null && model.objectType !== 'TableValuedFunction';
}

function limitText(model: SqlEndpoint): string {
  return model.maxBatchRows === null ? 'the server\'s `Sql:MaxBatchRows` (default 1000)' : `${model.maxBatchRows} (MaxBatchRows; never above the server's \`Sql:MaxBatchRows\`)`;
}

/** POST body: one record, or an array of records stored together. */
export function batchCreateBody(model: SqlEndpoint, one: SchemaObject | ReferenceObject): SchemaObject {
  return {
    oneOf: [
      one,
      {
        type: 'array',
        items: one,
        minItems: 1,
        ...(model.maxBatchRows === null ? {} : { maxItems: model.maxBatchRows }),
        description: `A batch: every row inserted in one statement, all or none; at most ${limitText(model)} rows (413 beyond). A failing row is a 422 whose details name it (\`[2].Code\`).`,
      },
    ],
  };
}

function batchResult(message: string, rows: boolean): SchemaObject {
  return {
    type: 'object',
    required: ['success', 'message', 'count', 'result', 'id'],
    properties: {
      success: { type: 'boolean', const: true },
      message: { type: 'string', const: message },
      count: { type: 'integer', description: 'Rows written.' },
      result: rows
        ? { type: 'array', items: { type: 'object' }, description: 'The stored rows in the order of the body (exposed names, ResponseTransforms applied).' }
        : { type: 'null' },
      id: { type: 'array', description: 'The record keys, in order.' },
    },
  };
}

export function batchCreateResult(one: SchemaObject): SchemaObject {
  return { oneOf: [one, batchResult('Records created successfully', true)] };
}

export function batchDeleteResult(one: SchemaObject): SchemaObject {
  return { oneOf: [one, batchResult('Records deleted successfully', false)] };
}

/** DELETE on the collection without `?id=`: the keys to remove together. */
export function batchDeleteBody(model: SqlEndpoint): SchemaObject {
  return {
    type: 'array',
    items: { type: ['integer', 'string'] },
    minItems: 1,
    ...(model.maxBatchRows === null ? {} : { maxItems: model.maxBatchRows }),
    description: `Without \`?id=\`: the keys of the records to remove in one statement, all or none (404 when one is missing); at most ${limitText(model)}.`,
  };
}
