/**
 * What a per-kind operation builder hands document.ts: operations keyed by path and method,
 * without the parts every operation shares (tags, summary, operationId, deprecated, 429),
 * which document.ts adds in one place.
 */
import type {
  MediaTypeObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas32';
import type { EndpointModel, HttpMethod } from '../../../runtime/contract/index.js';
import { ODATA_PARAMETERS, ref } from './components.js';
import type { ODataParameter } from './components.js';

export interface OperationSpec {
  /** Full path template, e.g. `/api/{env}/Inventory/Products/{id}`. */
  readonly path: string;
  /** Path parameters other than `env`, in template order (shared by all operations of the path). */
  readonly pathParameters: readonly ParameterObject[];
  readonly method: HttpMethod;
  /**
   * Distinguishes operations of one endpoint: `id` is the operationId suffix (null: none),
   * `label` is appended to the summary (`Invoices: download`).
   */
  readonly variant: { readonly id: string | null; readonly label: string } | null;
  /** Facts appended to the description (after MethodDescriptions), e.g. allowed extensions. */
  readonly notes: readonly string[];
  readonly operation: OperationObject;
}

export interface KindOperations {
  readonly operations: readonly OperationSpec[];
  /** Per-endpoint component schemas (name -> schema), e.g. `Inventory.Products.Item`. */
  readonly schemas: Readonly<Record<string, SchemaObject>>;
}

export const BY_ID = { id: 'byId', label: 'by id' } as const;

export function basePath(model: EndpointModel): string {
  return `/api/{env}/${model.routePath}`;
}

/** Name prefix for an endpoint's component schemas: `Inventory/Products` -> `Inventory.Products`. */
export function schemaPrefix(model: EndpointModel): string {
  return model.routePath.replace(/\//g, '.').replace(/[^A-Za-z0-9._-]/g, '_');
}

export function pathParameter(name: string, description: string, schema: SchemaObject = { type: 'string' }): ParameterObject {
  return { description, in: 'path', name, required: true, schema }; // keys in canonical order: canonicalJson need not copy
}

/**
 * The OData parameters of an operation as component references. When a response transform hides
 * columns (`hidden`: exposed names that are masked or removed), `$filter` and `$orderby` are
 * inlined with a description that says those columns are refused (they would be an oracle).
 */
export function odataParameters(names: readonly ODataParameter[], hidden: readonly string[] = []): (ReferenceObject | ParameterObject)[] {
  return names.filter((n) => n in ODATA_PARAMETERS).map((n) => {
    if (hidden.length === 0 || (n !== 'Filter' && n !== 'OrderBy')) return ref('parameters', n);
    const base = ODATA_PARAMETERS[n];
    const list = hidden.map((h) => `\`${h}\``).join(', ');
    const note = ` Not allowed: ${list} (masked or removed by ResponseTransforms; using one is a 400).`;
    return { ...base, in: 'query', description: base.description + note } as ParameterObject;
  });
}

export function content(mediaType: string, schema: SchemaObject | ReferenceObject | undefined): Record<string, MediaTypeObject> {
  return { [mediaType]: schema === undefined ? {} : { schema } };
}

export function jsonBody(schema: SchemaObject | ReferenceObject, description?: string): RequestBodyObject {
  return { content: content('application/json', schema), ...(description ? { description } : {}), required: true };
}

export function jsonResponse(description: string, schema: SchemaObject | ReferenceObject): ResponseObject {
  return { content: content('application/json', schema), description };
}

/** Where the OData options apply (spec: OData query parameters). */
export const ODATA_READ: readonly ODataParameter[] = ['Select', 'Filter', 'OrderBy', 'Top', 'Skip', 'Count'];
