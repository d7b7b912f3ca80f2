/** generated/manifest.json: the normalized models as the runtime reads them back. */
import { GENERATED_FILES, MANIFEST_SCHEMA_VERSION } from '../../runtime/contract/index.js';
import type { EndpointModel, Manifest } from '../../runtime/contract/index.js';
import type { OutputFile } from '../stages.js';
import { canonicalJson } from './canonical-json.js';
import { sortById } from './sort.js';

export function buildManifest(models: readonly EndpointModel[], sourceHash: string): Manifest {
  return { schemaVersion: MANIFEST_SCHEMA_VERSION, sourceHash, endpoints: sortById(models) };
}

export function emitManifest(models: readonly EndpointModel[], sourceHash: string): OutputFile[] {
  return [{ path: GENERATED_FILES.manifest, content: canonicalJson(buildManifest(models, sourceHash)) }];
}
