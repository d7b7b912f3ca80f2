/**
 * generated/manifest.json: what the compiler hands the runtime. The runtime refuses a
 * manifest whose schemaVersion it does not know (bump on any incompatible model change).
 */
import type { EndpointModel } from './model.js';

export const MANIFEST_SCHEMA_VERSION = 1;

/** File names inside generated/ that the runtime reads. */
export const GENERATED_FILES = {
  manifest: 'manifest.json',
  openapi: 'openapi.json',
  /** esbuild bundle of generated/routes/index.ts (one route module per endpoint). */
  routesBundle: 'routes.bundle.mjs',
} as const;

export interface Manifest {
  readonly schemaVersion: number;
  /** SHA-256 (hex) over the sorted source files (relative path + content) that produced it. */
  readonly sourceHash: string;
  /** Endpoints sorted by id. */
  readonly endpoints: readonly EndpointModel[];
}
