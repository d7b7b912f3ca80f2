/**
 * The emit stage: normalized models -> every file of generated/ except the docs pages.
 * Each emitter is a pure function of the models (config types also read schemas/); the
 * write stage puts the files on disk. Output order is sorted by path.
 */
import type { EndpointModel } from '../../runtime/contract/index.js';
import { artifactCache, type ArtifactCache } from '../artifact-cache.js';
import type { OutputFile } from '../stages.js';
import { canonicalJson, compareCodeUnits } from './canonical-json.js';
import { configTypesKey, makeConfigTypes } from './config-types.js';
import { emitManifest } from './manifest.js';
import { emitOpenApiFiles, type OpenApiFragments } from './openapi/fragments.js';
import { emitRouteFiles, routeModuleSource, type RouteModuleSource } from './route-files.js';
import { emitRoutesBundle } from './routes-bundle.js';
import { emitRowTypes } from './row-types.js';

import { DB_SNAPSHOT_OUTPUT, type DbSnapshot } from '../../runtime/contract/db-snapshot.js';

export interface EmitInput {
  readonly models: readonly EndpointModel[];
  /** SHA-256 over the sources (compiler/source-hash.ts); written into the manifest and routes. */
  readonly sourceHash: string;
  /** Project root: schemas/*.schema.json are read from here for the config types. */
  readonly root: string;
  /** Each endpoint's printed route module (default: printed now; the incremental build passes its cache). */
  readonly routeSource?: (model: EndpointModel) => RouteModuleSource;
  /** Where endpoint-independent outputs (the config types) are remembered; default: made each time. */
  readonly artifacts?: ArtifactCache;
  /** Each endpoint's OpenAPI fragments of the last build (the incremental build passes its cache); default: both documents built whole. */
  readonly openApiFragments?: OpenApiFragments;
  /** endpoints/database.snapshot.json: types openapi.json, writes types/rows.ts and is copied into generated/. */
  readonly dbSnapshot?: DbSnapshot | null;
}

export async function emitAll(input: EmitInput): Promise<OutputFile[]> {
  const routeSource = input.routeSource ?? memoized(routeModuleSource);
  const files = [
    ...emitManifest(input.models, input.sourceHash),
    ...emitRouteFiles(input.models, input.sourceHash, routeSource),
    ...emitRoutesBundle(input.models, input.sourceHash, routeSource),
    ...emitOpenApiFiles(input.models, input.dbSnapshot ?? null, input.openApiFragments),
    ...emitRowTypes(input.models, input.dbSnapshot),
    ...(input.dbSnapshot ? [{ path: DB_SNAPSHOT_OUTPUT, content: canonicalJson(input.dbSnapshot) }] : []),
    ...(await (input.artifacts ?? artifactCache(null)).get('config-types', await configTypesKey(input.root), () => makeConfigTypes(input.root))),
  ];
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/** Prints each endpoint's module once for both the .ts file and the bundle. */
function memoized(print: (model: EndpointModel) => RouteModuleSource): (model: EndpointModel) => RouteModuleSource {
  const printed = new Map<EndpointModel, RouteModuleSource>();
  return (model) => {
    let source = printed.get(model);
    if (source === undefined) printed.set(model, (source = print(model)));
    return source;
  };
}
