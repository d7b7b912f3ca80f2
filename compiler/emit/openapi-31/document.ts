/**
 * generated/openapi-3.1.json: the OpenAPI 3.2 document (compiler/emit/openapi) rewritten for
 * generators that read 3.1 only. 3.2's parts without a 3.1 place become extensions: a path's
 * `query` operation is `x-query`, its `additionalOperations` (MERGE) `x-additional-operations`,
 * and the tag fields `summary`, `parent`, `kind` are `x-summary`, `x-parent`, `x-kind`.
 * Everything else (schemas are JSON Schema 2020-12 in both) is unchanged. Canonical JSON, so as
 * deterministic as openapi.json.
 */

export const OPENAPI_31_FILE = 'openapi-3.1.json';
export const OPENAPI_31_VERSION = '3.1.1';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Path Item keys of 3.2 that 3.1 lacks, and their extension names. */
const PATH_ITEM_EXTENSIONS: Readonly<Record<string, string>> = { query: 'x-query', additionalOperations: 'x-additional-operations' };
/** Tag keys of 3.2 that 3.1 lacks. */
const TAG_EXTENSIONS: Readonly<Record<string, string>> = { summary: 'x-summary', parent: 'x-parent', kind: 'x-kind' };

function renameKeys(object: Json, names: Readonly<Record<string, string>>): Json {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [names[k] ?? k, v]));
}

/**
 * A 3.1 rendering of a 3.2 document. The input is not changed: the objects this changes (the
 * document, info, each path item, each tag) are new; the rest (operations, schemas) is shared.
 */
export function toOpenApi31(doc: unknown): Json {
  if (!isObject(doc)) throw new Error('an OpenAPI document must be a JSON object');
  const copy: Json = { ...doc };
  copy.openapi = OPENAPI_31_VERSION;
  if (isObject(copy.info) && typeof copy.info.description === 'string') {
    copy.info = {
      ...copy.info,
      description: `${copy.info.description} OpenAPI 3.1 rendering of openapi.json (3.2): QUERY operations are in each path's \`x-query\`, other methods (MERGE) in \`x-additional-operations\`.`,
    };
  }
  if (isObject(copy.paths)) {
    copy.paths = Object.fromEntries(Object.entries(copy.paths).map(([p, item]) => [p, isObject(item) ? renameKeys(item, PATH_ITEM_EXTENSIONS) : item]));
  }
  if (Array.isArray(copy.tags)) copy.tags = copy.tags.map((tag) => (isObject(tag) ? renameKeys(tag, TAG_EXTENSIONS) : tag));
  return copy;
}
