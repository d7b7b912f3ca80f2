/**
 * The value each generated route module exports (RouteModule): everything a request needs that
 * is known at build time, so the runtime only looks things up. Pure data; route-files.ts prints it.
 */
import type { EndpointModel, RouteModule } from '../../runtime/contract/index.js';
import { buildRouteSchemas } from './route-schemas.js';

export function buildRouteModule(model: EndpointModel): RouteModule {
  const base = {
    endpointId: model.id,
    kind: model.kind,
    methods: [...model.methods],
    routeKeys: routeKeys(model),
    schemas: buildRouteSchemas(model),
  };
  if (model.kind !== 'sql') return { ...base, kind: model.kind };
  // `kind` is already second in `base`; restating it narrows the type without moving the key.
  const columnsByName: Record<string, string> = {};
  const namesByColumn: Record<string, string> = {};
  for (const column of model.columns) {
    columnsByName[column.name] = column.db;
    namesByColumn[column.db] = column.name;
  }
  return {
    ...base,
    kind: 'sql',
    columnsByName,
    namesByColumn,
    defaultSelect: model.columns.map((c) => c.name),
    supportsExpand: model.objectType !== 'TableValuedFunction',
  };
}

/** Lower-cased route path first, then the aliases, without duplicates (URLs are case-insensitive). */
export function routeKeys(model: EndpointModel): string[] {
  return [...new Set([model.routePath, ...model.routeAliases].map((p) => p.toLowerCase()))];
}

/** `routes/<kind>/<routePath>.ts`, each path segment escaped (see escapeSegment). */
export function routeModulePath(model: EndpointModel): string {
  return `routes/${model.kind}/${model.routePath.split('/').map(escapeSegment).join('/')}.ts`;
}

/**
 * Route path segments are validated identifiers already; anything else still cannot escape
 * generated/routes/: characters outside `[A-Za-z0-9_-]` become `%XX` (UTF-8 bytes), so `.`,
 * `..`, empty segments and separators never reach the file system as such.
 */
export function escapeSegment(segment: string): string {
  if (segment === '') return '%';
  let out = '';
  for (const ch of segment) {
    if (/^[A-Za-z0-9_-]$/.test(ch)) out += ch;
    else for (const byte of new TextEncoder().encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
