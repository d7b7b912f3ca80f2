/**
 * The emit stage: normalized models -> every file of generated/ except the docs pages.
 * Each emitter is a pure function of the models (config types also read schemas/); the
 * write stage puts the files on disk. Output order is sorted by path.
 */
import type { EndpointModel } from '../../runtime/contract/index.js';
import type { OutputFile } from '../stages.js';
import { compareCodeUnits } from './canonical-json.js';
import { emitConfigTypes } from './config-types.js';
import { emitManifest } from './manifest.js';
import { emitOpenApi } from './openapi/document.js';
import { emitRouteFiles } from './route-files.js';
import { emitRoutesBundle } from './routes-bundle.js';

export interface EmitInput {
  readonly models: readonly EndpointModel[];
  /** SHA-256 over the sources (compiler/source-hash.ts); written into the manifest and routes. */
  readonly sourceHash: string;
  /** Project root: schemas/*.schema.json are read from here for the config types. */
  readonly root: string;
}

export async function emitAll(input: EmitInput): Promise<OutputFile[]> {
  const routeFiles = emitRouteFiles(input.models, input.sourceHash);
  const [bundle, configTypes] = await Promise.all([emitRoutesBundle(routeFiles), emitConfigTypes(input.root)]);
  const files = [
    ...emitManifest(input.models, input.sourceHash),
    ...routeFiles,
    ...bundle,
    ...emitOpenApi(input.models),
    ...configTypes,
  ];
  return files.sort((a, b) => compareCodeUnits(a.path, b.path));
}
