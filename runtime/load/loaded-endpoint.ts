/** One endpoint as the runtime serves it: its model (manifest) joined with its route module (bundle). */
import type {
  EndpointKind,
  EndpointModel,
  GenericRouteModule,
  SqlRouteModule,
} from '../contract/index.js';

import type { OpenApiDocument } from './openapi-document.js';

export type ModelFor<K extends EndpointKind> = Extract<EndpointModel, { kind: K }>;
export type RouteModuleFor<K extends EndpointKind> = K extends 'sql' ? SqlRouteModule : GenericRouteModule;

export interface LoadedEndpointOf<K extends EndpointKind> {
  readonly id: string;
  readonly kind: K;
  readonly model: ModelFor<K>;
  readonly route: RouteModuleFor<K>;
}

/** Discriminated on `kind`: narrowing it narrows `model` and `route` too. */
export type LoadedEndpoint = { [K in EndpointKind]: LoadedEndpointOf<K> }[EndpointKind];

export interface LoadedGenerated {
  readonly sourceHash: string;
  /** Sorted by id (manifest order). */
  readonly endpoints: readonly LoadedEndpoint[];
  /** generated/openapi.json (served as is), null when the file is absent. */
  readonly openapi: OpenApiDocument | null;
}
