/**
 * What each generated route module (generated/routes/<kind>/<path>.ts) exports as default:
 * everything a request needs that can be computed at build time, so the hot path only looks up.
 * JSON Schemas here are plain objects (draft-07), compiled by the runtime at load time for
 * validation (requests) and fast serialization (responses); openapi.json reuses the same ones.
 */
import type { EndpointKind, HttpMethod } from './methods.js';

export type JsonSchema = Readonly<Record<string, unknown>>;

export interface RouteSchemas {
  /** Body of a QUERY request (`{select, filter, orderby, top, skip}`), null when QUERY is not allowed. */
  readonly queryBody: JsonSchema | null;
  /** Body of POST/PUT/PATCH/MERGE where the gateway understands it (SQL writes), else null. */
  readonly writeBody: JsonSchema | null;
  /** One item of a successful read (a row after alias mapping), null when opaque (proxy, files). */
  readonly item: JsonSchema | null;
  /** The paginated envelope `{success, count, value, nextLink}` around `item`, null when not paginated. */
  readonly list: JsonSchema | null;
}

interface RouteModuleBase {
  readonly endpointId: string;
  readonly kind: EndpointKind;
  readonly methods: readonly HttpMethod[];
  /** Lower-cased paths below `/api/{env}/` that reach this endpoint (route path + aliases). */
  readonly routeKeys: readonly string[];
  readonly schemas: RouteSchemas;
}

export interface SqlRouteModule extends RouteModuleBase {
  readonly kind: 'sql';
  /** exposed name -> database column (the alias allow-list; nothing else may reach SQL). */
  readonly columnsByName: Readonly<Record<string, string>>;
  /** database column -> exposed name. */
  readonly namesByColumn: Readonly<Record<string, string>>;
  /** Exposed names in declaration order (default `$select`). */
  readonly defaultSelect: readonly string[];
  /** Whether `$expand` etc. apply: Table/View true, TableValuedFunction false. */
  readonly supportsExpand: boolean;
}

export interface GenericRouteModule extends RouteModuleBase {
  readonly kind: Exclude<EndpointKind, 'sql'>;
}

export type RouteModule = SqlRouteModule | GenericRouteModule;

/** Shape of the bundle's module namespace (generated/routes.bundle.mjs). */
export interface RoutesBundle {
  readonly sourceHash: string;
  readonly routes: readonly RouteModule[];
}
