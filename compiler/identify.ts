/**
 * Stage 3: give a parsed entity its kind and route identity (namespace, route path, aliases).
 * Pure: reads only the parsed value and the discovered location. Naming rules on the result
 * (segments, reserved names, length) are validation rules, not identify's concern.
 */
import type { EndpointKind } from '../runtime/contract/index.js';
import type { Diagnostic } from './diagnostics.js';
import type { EntityContext, ParsedEntity, TypeFolder } from './stages.js';

export interface IdentifyResult {
  readonly context: EntityContext | null;
  readonly diagnostics: Diagnostic[];
}

const FOLDER_KIND: Readonly<Record<Exclude<TypeFolder, 'Proxy'>, EndpointKind>> = {
  SQL: 'sql',
  Static: 'static',
  Files: 'files',
  Webhooks: 'webhook',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A Proxy-folder entity with any `Type` property is treated as Composite; the composite schema
 * then requires `Type` to be exactly `Composite`, so a misspelt value gets one clear error.
 */
export function kindOf(typeFolder: TypeFolder, config: Readonly<Record<string, unknown>>): EndpointKind {
  if (typeFolder === 'Proxy') return config.Type !== undefined ? 'composite' : 'proxy';
  return FOLDER_KIND[typeFolder];
}

/** Effective namespace: explicit `Namespace` > the folders above the endpoint folder > none. */
export function namespaceOf(
  config: Readonly<Record<string, unknown>>,
  folders: readonly string[],
): { namespace: string | null; namespaceSource: EntityContext['namespaceSource'] } {
  const explicit = config.Namespace;
  if (typeof explicit === 'string' && explicit !== '') return { namespace: explicit, namespaceSource: 'explicit' };
  if (folders.length > 0) return { namespace: folders.join('/'), namespaceSource: 'directory' };
  return { namespace: null, namespaceSource: 'none' };
}

/** Route path below /api/{env}/ and legacy aliases for a kind, name and namespace. */
export function routeOf(
  kind: EndpointKind,
  name: string,
  namespace: string | null,
): { routePath: string; routeAliases: string[] } {
  const base = namespace ? `${namespace}/${name}` : name;
  if (kind === 'files') return { routePath: `files/${base}`, routeAliases: [] };
  if (kind === 'composite' && !namespace) return { routePath: base, routeAliases: [`composite/${name}`] };
  return { routePath: base, routeAliases: [] };
}

export function identify(parsed: ParsedEntity): IdentifyResult {
  // parse already reported why there is no object (syntax error or a non-object document).
  if (!isObject(parsed.value)) return { context: null, diagnostics: [] };
  const config = parsed.value;
  const { typeFolder, folders, name } = parsed.source;
  const kind = kindOf(typeFolder, config);
  const { namespace, namespaceSource } = namespaceOf(config, folders);
  const { routePath, routeAliases } = routeOf(kind, name, namespace);
  return {
    context: { parsed, kind, config, name, namespace, namespaceSource, routePath, routeAliases },
    diagnostics: [],
  };
}
