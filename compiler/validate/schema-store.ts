/** The JSON Schemas of schemas/, read once, and `$ref` lookup for annotations (descriptions). */
import { readFileSync } from 'node:fs';
import type { EndpointKind } from '../../runtime/contract/index.js';

export const SCHEMA_DIR = new URL('../../schemas/', import.meta.url);
export const COMMON_SCHEMA = 'common.schema.json';

export const SCHEMA_FILE: Readonly<Record<EndpointKind, string>> = {
  sql: 'sql.schema.json',
  proxy: 'proxy.schema.json',
  composite: 'composite.schema.json',
  static: 'static.schema.json',
  webhook: 'webhook.schema.json',
  files: 'files.schema.json',
};

export type JsonSchema = { readonly [key: string]: unknown };

let store: Map<string, JsonSchema> | null = null;

/** Every schema file by file name. */
export function loadSchemas(): ReadonlyMap<string, JsonSchema> {
  if (store) return store;
  store = new Map();
  for (const file of [COMMON_SCHEMA, ...Object.values(SCHEMA_FILE)]) {
    store.set(file, JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')) as JsonSchema);
  }
  return store;
}

/**
 * Uses these schemas instead of reading schemas/ (.wharf/dist/validator/validator.mjs carries them
 * inline, so it validates without the compiler's folder next to it).
 */
export function provideSchemas(schemas: ReadonlyMap<string, JsonSchema>): void {
  store = new Map(schemas);
}

/** Follows `file#/definitions/X` (or `#/definitions/X` of the common schema) one level. */
export function deref(schema: JsonSchema | undefined): JsonSchema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  const [file, fragment = ''] = ref.split('#');
  let node: unknown = loadSchemas().get(file || COMMON_SCHEMA);
  for (const seg of fragment.split('/').filter(Boolean)) node = (node as Record<string, unknown> | undefined)?.[seg];
  return node as JsonSchema | undefined;
}

/** The description of a property schema: its own, else the referenced definition's. */
export function descriptionOf(schema: JsonSchema | undefined): string | undefined {
  const own = schema?.description;
  if (typeof own === 'string') return own;
  const target = deref(schema)?.description;
  return typeof target === 'string' ? target : undefined;
}
