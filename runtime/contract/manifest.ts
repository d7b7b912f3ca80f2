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

/** What .wharf/dist/validator/validator.mjs (the console's validator, scripts/runtime-dist.mjs) exports. */
export interface EntityLocation {
  /** Type folder under endpoints/: SQL, Proxy, Static, Files, Webhooks. */
  readonly typeFolder: string;
  /** Namespace folders between the type folder and the endpoint folder. */
  readonly folders: readonly string[];
  /** Endpoint folder name. */
  readonly name: string;
}

export interface ValidatorDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly pointer: string;
  readonly message: string;
  readonly hint?: string;
}

export interface ValidatorBundle {
  /**
   * The diagnostics `wharf check` would report for this entity.json (given as text) at this
   * location in the project at `root`, the project's other endpoints read from disk.
   */
  validateEntityText(root: string, location: EntityLocation, text: string): Promise<ValidatorDiagnostic[]>;
}

export interface Manifest {
  readonly schemaVersion: number;
  /** SHA-256 (hex) over the sorted source files (relative path + content) that produced it. */
  readonly sourceHash: string;
  /** Endpoints sorted by id. */
  readonly endpoints: readonly EndpointModel[];
}
