/**
 * The JSON Schemas a route module carries (RouteSchemas). Written in the subset that means the
 * same in draft-07 (what the runtime's Ajv compiles) and in JSON Schema 2020-12 (what OpenAPI 3.2
 * uses), so openapi.json reuses them unchanged: `type` (also as an array), `properties`,
 * `required`, `additionalProperties`, `items`, `enum`, `minimum`, `maximum`; no `$schema`.
 */
import type { EndpointModel, HttpMethod, JsonSchema, RouteSchemas, SqlEndpoint } from '../../runtime/contract/index.js';
import { columnJsonSchema, type SnapshotColumn } from '../../runtime/contract/db-snapshot.js';

/**
 * The catalogue's column of a database column name (compiler/emit/column-types.ts), from the
 * database snapshot; without one every column is any JSON value.
 */
export type ColumnTypes = (dbColumn: string) => SnapshotColumn | undefined;
const UNTYPED: ColumnTypes = () => undefined;
const MASKED: JsonSchema = { type: 'string', const: '***', description: 'Masked by ResponseTransforms.' };

/** OData `$top` upper bound (spec: Limits). */
export const MAX_TOP = 1000;

const WRITE_METHODS: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH', 'MERGE'];

export function buildRouteSchemas(model: EndpointModel): RouteSchemas {
  switch (model.kind) {
    case 'sql':
      return {
        queryBody: allows(model, 'QUERY') ? queryBodySchema() : null,
        writeBody: WRITE_METHODS.some((m) => allows(model, m)) ? writeBodySchema(model) : null,
        item: itemSchema(model),
        list: listSchema(itemSchema(model)),
      };
    case 'static':
      return { queryBody: allows(model, 'QUERY') ? queryBodySchema() : null, writeBody: null, item: null, list: null };
    case 'proxy':
    case 'composite':
    case 'webhook':
    case 'files':
      // Bodies pass through to an upstream, a flow or storage: the gateway does not shape them.
      return { queryBody: null, writeBody: null, item: null, list: null };
  }
}

function allows(model: EndpointModel, method: HttpMethod): boolean {
  return model.methods.includes(method);
}

/** Body of a QUERY request: the OData options by their spec names (spec: QUERY body). */
export function queryBodySchema(): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      select: { type: 'string', description: 'Comma-separated column names, as `$select`.' },
      filter: { type: 'string', description: 'Filter expression, as `$filter`.' },
      orderby: { type: 'string', description: 'Sort order, as `$orderby`.' },
      top: { type: 'integer', minimum: 0, maximum: MAX_TOP, description: 'Page size, as `$top`.' },
      skip: { type: 'integer', minimum: 0, description: 'Rows to skip, as `$skip`.' },
      apply: { type: 'string', description: 'Aggregation, as `$apply` (SQL tables and views, Static endpoints with filtering).' },
    },
  };
}

/** Which write a body schema is for: `create` (POST) and `replace` (PUT) carry `required`. */
export type WriteBodyKind = 'any' | 'create' | 'replace' | 'update';

/**
 * Body of a SQL write: only the exposed column names (aliases). Without a database snapshot each
 * is any JSON value; with one, the column's JSON type (`readOnly` for identity and generated
 * columns, `maxLength`, `null` only when nullable). A ColumnValidation column is a string (or
 * null) with its `pattern`. For POST and PUT, `required` from RequiredColumns and, with a
 * snapshot, every NOT NULL column the database does not fill itself.
 */
export function writeBodySchema(model: SqlEndpoint, kind: WriteBodyKind = 'any', types: ColumnTypes = UNTYPED): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  let typed = false;
  for (const c of model.columns) {
    const rule = model.columnValidation.find((v) => v.column === c.db);
    const column = types(c.db);
    typed ||= column !== undefined;
    properties[c.name] = rule
      ? { type: ['string', 'null'], pattern: rule.regex, description: rule.message ?? `${c.name} does not match the required format` }
      : column
        ? columnJsonSchema(column)
        : {};
  }
  const schema: JsonSchema = { type: 'object', additionalProperties: false, properties };
  if (kind === 'any') return schema;
  const required = model.requiredColumns.map((db) => model.columns.find((c) => c.db === db)?.name ?? db);
  if (kind !== 'update') {
    for (const c of model.columns) {
      const column = types(c.db);
      if (column && !column.nullable && column.default === undefined && !column.identity && !column.generated && !required.includes(c.name)) required.push(c.name);
    }
  }
  const text = typed
    ? 'Exposed column names (database names and any letter case are accepted too), typed from the database snapshot.'
    : 'Exposed column names (database names and any letter case are accepted too). Column types are not known at build time: every value is any JSON value; objects and arrays are stored as JSON text.';
  if (kind === 'update') return { ...schema, minProperties: 1, description: `Only the columns to change. ${text}` };
  const whole = kind === 'create' ? 'The new record.' : 'The whole record; allowed columns left out become NULL (Table mode).';
  return { ...schema, ...(required.length > 0 ? { required } : {}), minProperties: 1, description: `${whole} ${text}` };
}

/**
 * One row as the client receives it: exposed names after the response transforms (`Remove`
 * drops a field and wins over the others, `Rename` renames it, `Mask` keeps it), plus the
 * `$expand` navigation properties of tables and views. Without a database snapshot every
 * property is any JSON value, null included; with one, the column's JSON type (a masked column
 * is the string `***`). Extra properties stay allowed.
 */
export function itemSchema(model: SqlEndpoint, types: ColumnTypes = UNTYPED): JsonSchema {
  const { remove, rename, mask } = model.responseTransforms;
  const visible = (name: string): boolean => !remove.includes(name);
  const shown = (name: string): string => rename[name] ?? name;
  const properties: Record<string, JsonSchema> = {};
  for (const c of model.columns.filter((col) => visible(col.name))) {
    const column = types(c.db);
    properties[shown(c.name)] = mask.includes(c.name) ? (column ? MASKED : {}) : column ? columnJsonSchema(column) : {};
  }
  if (model.objectType !== 'TableValuedFunction') {
    for (const rel of model.relationships.filter((r) => visible(r.name))) {
      properties[shown(rel.name)] =
        rel.multiplicity === 'ToMany'
          ? { type: 'array', items: { type: 'object' }, description: `Related rows, with \`$expand=${rel.name}\`.` }
          : { type: ['object', 'null'], description: `Related row, with \`$expand=${rel.name}\`.` };
    }
  }
  return { type: 'object', additionalProperties: true, properties };
}

/** The paginated envelope (spec: Paginated response envelope) around `item` (a schema or a `$ref`). */
export function listSchema(item: JsonSchema | { readonly $ref: string }): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'count', 'value', 'nextLink'],
    properties: {
      success: { type: 'boolean', enum: [true] },
      count: { type: 'integer', minimum: 0, description: 'Number of items in `value`.' },
      value: { type: 'array', items: item },
      nextLink: {
        type: ['string', 'null'],
        description: 'Relative URL of the next page (`$top`, `$skip`, `$orderby`); null on the last page.',
      },
    },
  };
}
