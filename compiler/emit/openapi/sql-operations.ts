/**
 * SQL endpoints: collection path for GET (list), QUERY, POST and DELETE `?id=`, and
 * `/{id}` for GET, PUT, PATCH, MERGE and DELETE of one record (not for table-valued functions,
 * which have no key; their Path parameters become path segments, Query parameters query options).
 */
import type { OperationObject, ParameterObject, SchemaObject } from 'openapi3-ts/oas32';
import type { FunctionParameter, HttpMethod, SqlEndpoint } from '../../../runtime/contract/index.js';
import { compareCodeUnits } from '../canonical-json.js';
import type { DbSnapshot } from '../../../runtime/contract/db-snapshot.js';
import { itemSchema, listSchema, writeBodySchema } from '../route-schemas.js';
import { columnTypesOf } from '../column-types.js';
import { errorResponses, ref } from './components.js';
import { batchCreateBody, batchCreateResult, batchDeleteBody, batchDeleteResult, takesBatches } from './sql-batch.js';
import type { ErrorStatus } from './components.js';
import { BY_ID, basePath, jsonBody, jsonResponse, odataParameters, ODATA_READ, pathParameter, schemaPrefix } from './operation-spec.js';
import type { KindOperations, OperationSpec } from './operation-spec.js';

const READ_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 500, 503];
const WRITE_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 409, 413, 415, 422, 500, 503];
const DELETE_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 409, 500, 503];
const QUERY_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 415, 500, 503];
/** Summary suffixes: `Products: list`, `Products: read one`. */
const LABELS: Record<HttpMethod, string> = {
  GET: 'list',
  QUERY: 'query',
  POST: 'create',
  PUT: 'replace',
  PATCH: 'update',
  MERGE: 'update (MERGE)',
  DELETE: 'delete',
};
function writeResult(message: string): SchemaObject {
  return {
    type: 'object',
    required: ['success', 'message', 'result', 'id'],
    properties: {
      success: { type: 'boolean', const: true },
      message: { type: 'string', const: message },
      result: {
        type: ['object', 'null'],
        description: 'Table mode: the written row (exposed names, ResponseTransforms applied; null after DELETE). Procedure: the first row of its first result set.',
      },
      id: { description: 'The record key, null when unknown.' },
    },
  };
}

export function sqlOperations(model: SqlEndpoint, snapshot: DbSnapshot | null = null): KindOperations {
  const types = columnTypesOf(snapshot, model);
  const prefix = schemaPrefix(model);
  const names = { item: `${prefix}.Item`, list: `${prefix}.List`, create: `${prefix}.CreateBody`, replace: `${prefix}.ReplaceBody`, update: `${prefix}.UpdateBody` };
  const tvf = model.objectType === 'TableValuedFunction';
  const pathParams = tvf ? functionPathParameters(model.functionParameters) : [];
  const collection = basePath(model) + pathParams.map((p) => `/{${p.name}}`).join('');
  const readParams = [
    ...odataParameters(tvf ? ODATA_READ : [...ODATA_READ, 'Expand', 'Apply', ...(model.paging === 'Keyset' ? ['SkipToken' as const] : [])], hiddenNames(model)),
    ...functionQueryParameters(model.functionParameters),
  ];
  const has = (m: HttpMethod): boolean => model.methods.includes(m);
  const ops: OperationSpec[] = [];
  const add = (method: HttpMethod, path: string, byId: boolean, operation: OperationObject, label = LABELS[method]): void => {
    const params = byId ? [idParameter(model)] : pathParams;
    ops.push({ path, pathParameters: params, method, variant: { id: byId ? BY_ID.id : null, label }, notes: [], operation });
  };

  if (has('GET')) {
    add('GET', collection, false, {
      parameters: readParams,
      responses: { 200: jsonResponse('One page of rows.', ref('schemas', names.list)), ...errorResponses(READ_ERRORS) },
    });
  }
  if (has('QUERY')) {
    add('QUERY', collection, false, {
      parameters: functionQueryParameters(model.functionParameters),
      requestBody: jsonBody(ref('schemas', 'QueryBody'), 'The query options, as the `$`-parameters of GET.'),
      responses: {
        200: { ...jsonResponse('One page of rows, as the equivalent GET.', ref('schemas', names.list)), headers: contentLocation() },
        ...errorResponses(QUERY_ERRORS),
      },
    });
  }
  if (has('POST')) {
    add('POST', collection, false, {
      requestBody: jsonBody(takesBatches(model) ? batchCreateBody(model, ref('schemas', names.create)) : ref('schemas', names.create)),
      responses: {
        201: {
          ...jsonResponse('Record created.', takesBatches(model) ? batchCreateResult(writeResult('Record created successfully')) : writeResult('Record created successfully')),
          headers: location(),
        },
        ...errorResponses(WRITE_ERRORS),
      },
    });
  }
  if (model.primaryKey !== null && !tvf) {
    const byId = `${basePath(model)}/{id}`;
    if (has('GET')) {
      add('GET', byId, true, {
        responses: { 200: jsonResponse('The record.', ref('schemas', names.item)), ...errorResponses(READ_ERRORS) },
      }, 'read one');
    }
    for (const method of ['PUT', 'PATCH', 'MERGE'] as const) {
      if (!has(method)) continue;
      const what = method === 'PUT' ? 'The full record; a primary key in the body must equal the one in the path.' : 'Only the changed columns.';
      const message = method === 'PUT' ? 'Record updated successfully' : 'Record partially updated successfully';
      add(method, byId, true, {
        requestBody: jsonBody(ref('schemas', method === 'PUT' ? names.replace : names.update), what),
        responses: { 200: jsonResponse('Record updated.', writeResult(message)), ...errorResponses(WRITE_ERRORS) },
      });
    }
    if (has('DELETE')) {
      const responses = { 200: jsonResponse('Record deleted.', writeResult('Record deleted successfully')), ...errorResponses(DELETE_ERRORS) };
      add('DELETE', byId, true, { responses });
      const batch = takesBatches(model);
      ops.push({
        path: basePath(model),
        pathParameters: [],
        method: 'DELETE',
        variant: { id: 'byQuery', label: 'delete (id parameter)' },
        notes: [],
        operation: {
          parameters: [{ name: 'id', in: 'query', required: !batch, description: keyDescription(model), schema: { type: 'string' } }],
          ...(batch ? { requestBody: { ...jsonBody(batchDeleteBody(model)), required: false } } : {}),
          responses: batch
            ? { ...responses, 200: jsonResponse('Record(s) deleted.', batchDeleteResult(writeResult('Record deleted successfully'))) }
            : responses,
        },
      });
    }
  }

  const schemas: Record<string, SchemaObject> = {
    [names.item]: itemSchema(model, types),
    [names.list]: listSchema(ref('schemas', names.item)),
  };
  if (has('POST')) schemas[names.create] = writeBodySchema(model, 'create', types);
  if (has('PUT') && model.primaryKey !== null && !tvf) schemas[names.replace] = writeBodySchema(model, 'replace', types);
  if ((has('PATCH') || has('MERGE')) && model.primaryKey !== null && !tvf) schemas[names.update] = writeBodySchema(model, 'update', types);
  return { operations: ops, schemas };
}

function idParameter(model: SqlEndpoint): ParameterObject {
  return pathParameter('id', keyDescription(model));
}

function keyDescription(model: SqlEndpoint): string {
  const key = model.columns.find((c) => c.db === model.primaryKey)?.name ?? model.primaryKey ?? '';
  return `Value of the primary key \`${key}\`.`;
}

function functionPathParameters(params: readonly FunctionParameter[]): ParameterObject[] {
  return params
    .filter((p) => p.source === 'Path')
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || compareCodeUnits(a.name, b.name))
    .map((p) => pathParameter(p.name, functionDescription(p), functionSchema(p)));
}

function functionQueryParameters(params: readonly FunctionParameter[]): ParameterObject[] {
  return params
    .filter((p) => p.source === 'Query')
    .map((p) => ({
      name: p.name,
      in: 'query',
      required: p.required && p.defaultValue === null,
      description: functionDescription(p),
      schema: functionSchema(p),
    }));
}

function functionDescription(p: FunctionParameter): string {
  const fallback = p.defaultValue === null ? '' : p.defaultValue === 'DEFAULT' ? ' Default: the function default.' : ` Default: \`${p.defaultValue}\`.`;
  return `Function parameter (SQL type \`${p.sqlType}\`).${fallback}`;
}

/**
 * A JSON type from the SQL type name: what the value must look like in the URL. A
 * ValidationPattern applies to the raw text, so such a parameter is documented as a string.
 */
function functionSchema(p: FunctionParameter): SchemaObject {
  if (p.validationPattern !== null) return { type: 'string', pattern: p.validationPattern };
  const sqlType = p.sqlType.toLowerCase().replace(/\(.*$/, '').trim();
  if (['int', 'integer', 'bigint', 'smallint', 'tinyint'].includes(sqlType)) return { type: 'integer' };
  if (['decimal', 'numeric', 'float', 'real', 'money', 'smallmoney', 'double precision'].includes(sqlType)) return { type: 'number' };
  if (['bit', 'boolean', 'bool'].includes(sqlType)) return { type: 'boolean' };
  return { type: 'string' };
}

function location(): Record<string, unknown> {
  return { Location: { description: 'URL of the new record (`.../{id}`), or of the endpoint when the key is unknown.', schema: { type: 'string' } } };
}

function contentLocation(): Record<string, unknown> {
  return { 'Content-Location': { description: 'The equivalent GET URL.', schema: { type: 'string' } } };
}

/** Exposed names of the columns a transform masks or removes (refused in $filter and $orderby). */
function hiddenNames(model: SqlEndpoint): string[] {
  const t = model.responseTransforms;
  const hides = (c: { db: string; name: string }) =>
    [...t.remove, ...t.mask].some((n) => n.toLowerCase() === c.name.toLowerCase() || n.toLowerCase() === c.db.toLowerCase());
  return model.columns.filter(hides).map((c) => c.name).sort(compareCodeUnits);
}
