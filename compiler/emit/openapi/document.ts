/**
 * generated/openapi.json: an OpenAPI 3.2 document of the visible endpoints, built at compile time
 * from the models with openapi3-ts. QUERY is the 3.2 `query` operation; MERGE, not an OpenAPI
 * method, goes under the path item's `additionalOperations`. Written as canonical JSON (sorted
 * keys, so sorted paths), with no timestamps, absolute paths or package version.
 */
import { OpenApiBuilder } from 'openapi3-ts/oas32';
import type { OpenAPIObject, OperationObject, PathItemObject, SchemaObject, TagObject } from 'openapi3-ts/oas32';
import type { EndpointModel, HttpMethod } from '../../../runtime/contract/index.js';
import { compareCodeUnits } from '../canonical-json.js';
import { sortById } from '../sort.js';
import { buildComponents, ENV_PARAMETER, ref } from './components.js';
import { compositeOperations } from './composite-operations.js';
import { filesOperations } from './files-operations.js';
import type { KindOperations, OperationSpec } from './operation-spec.js';
import { proxyOperations } from './proxy-operations.js';
import { sqlOperations } from './sql-operations.js';
import type { DbSnapshot } from '../../../runtime/contract/db-snapshot.js';
import { staticOperations } from './static-operations.js';
import { planTags } from './tags.js';
import { webhookOperations } from './webhook-operations.js';

export const OPENAPI_VERSION = '3.2.0';
/**
 * The document's own version. Fixed rather than the package version: the document changes only
 * when endpoints change, and a release bump must not produce a generated/ diff.
 */
export const API_VERSION = '1.0.0';

const FIXED_METHODS: Partial<Record<HttpMethod, 'get' | 'put' | 'post' | 'delete' | 'patch' | 'query'>> = {
  GET: 'get',
  PUT: 'put',
  POST: 'post',
  DELETE: 'delete',
  PATCH: 'patch',
  QUERY: 'query',
};

/** With a database snapshot, SQL columns carry their types (compiler/emit/column-types.ts). */
export function buildOpenApi(models: readonly EndpointModel[], snapshot: DbSnapshot | null = null): OpenAPIObject {
  const visible = sortById(models).filter((m) => !m.hidden);
  const tags = planTags(visible);
  const builder = new OpenApiBuilder(documentFrame(tags.tags));
  const paths: Record<string, PathItemObject> = {};
  const operationIds = new Set<string>();
  for (const model of visible) {
    const { operations, schemas } = operationsOf(model, snapshot);
    for (const [name, schema] of Object.entries(schemas)) {
      if (builder.rootDoc.components?.schemas?.[name] !== undefined) throw new Error(`openapi: two endpoints define the schema '${name}'`);
      builder.addSchema(name, schema);
    }
    for (const spec of operations) {
      const item = (paths[spec.path] ??= { parameters: [ref('parameters', ENV_PARAMETER), ...spec.pathParameters] });
      place(item, spec, finishOperation(model, spec, tags.tagOf(model), operationIds));
    }
  }
  for (const [path, item] of Object.entries(paths)) builder.addPath(path, keysInOrder(item));
  return builder.getSpec();
}

/**
 * One endpoint's path items and component schemas, alone: what buildOpenApi adds for it when no
 * other endpoint shares a path or a schema name and none took one of its operationIds
 * (compiler/emit/openapi/fragments.ts checks that before using them).
 */
export function endpointParts(
  model: EndpointModel,
  snapshot: DbSnapshot | null,
  tag: string,
  used: Set<string>,
): { paths: Record<string, PathItemObject>; schemas: Readonly<Record<string, SchemaObject>> } {
  const { operations, schemas } = operationsOf(model, snapshot);
  const paths: Record<string, PathItemObject> = {};
  for (const spec of operations) {
    const item = (paths[spec.path] ??= { parameters: [ref('parameters', ENV_PARAMETER), ...spec.pathParameters] });
    place(item, spec, finishOperation(model, spec, tag, used));
  }
  return { paths, schemas };
}

/** The document without any endpoint's paths and schemas (the tags are those of `visible`). */
export function documentFrame(tags: TagObject[]): OpenAPIObject {
  return OpenApiBuilder.create({
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Wharf API',
      version: API_VERSION,
      description: 'Data API of the Wharf gateway: the configured endpoints under `/api/{env}/`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags,
    paths: {},
    components: buildComponents(),
  }).getSpec();
}

function operationsOf(model: EndpointModel, snapshot: DbSnapshot | null): KindOperations {
  switch (model.kind) {
    case 'sql':
      return sqlOperations(model, snapshot);
    case 'proxy':
      return proxyOperations(model);
    case 'static':
      return staticOperations(model);
    case 'composite':
      return compositeOperations(model);
    case 'webhook':
      return webhookOperations(model);
    case 'files':
      return filesOperations(model);
  }
}

/** The parts every operation shares: tag, summary, description, operationId, deprecated. */
function finishOperation(model: EndpointModel, spec: OperationSpec, tag: string, used: Set<string>): OperationObject {
  const description = [
    model.documentation.methodDescriptions[spec.method],
    ...spec.notes,
    model.enabled ? undefined : 'This endpoint is currently disabled: calls receive 503 with `Retry-After`.',
  ].filter((text): text is string => text !== undefined && text !== '');
  const operation: OperationObject = {
    ...spec.operation,
    tags: [tag],
    summary: spec.variant === null ? model.displayName : `${model.displayName}: ${spec.variant.label}`,
    operationId: operationId(model, spec, used),
  };
  if (description.length > 0) operation.description = description.join('\n\n');
  if (model.deprecated) operation.deprecated = true;
  return keysInOrder(operation);
}

/** `get_Inventory_Products`, `get_Inventory_Products_byId`; a clash (two kinds, one path) adds the kind. */
function operationId(model: EndpointModel, spec: OperationSpec, used: Set<string>): string {
  const base = [spec.method.toLowerCase(), model.routePath.replace(/[^A-Za-z0-9]/g, '_'), spec.variant?.id]
    .filter((part) => part !== undefined && part !== null)
    .join('_');
  const id = used.has(base) ? `${base}_${model.kind}` : base;
  if (used.has(id)) throw new Error(`openapi: duplicate operationId '${id}' (${model.id})`);
  used.add(id);
  return id;
}

function place(item: PathItemObject, spec: OperationSpec, operation: OperationObject): void {
  const key = FIXED_METHODS[spec.method];
  const taken = key === undefined ? item.additionalOperations?.[spec.method] : item[key];
  if (taken !== undefined) throw new Error(`openapi: two operations for ${spec.method} ${spec.path}`);
  if (key !== undefined) item[key] = operation;
  else item.additionalOperations = { ...item.additionalOperations, [spec.method]: operation };
}

/** The same members, inserted in code unit order (what canonicalJson writes), so it copies no operation or path item. */
function keysInOrder<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => compareCodeUnits(a, b))) as T;
}
