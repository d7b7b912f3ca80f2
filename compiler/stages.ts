/**
 * The typed boundaries between compiler stages:
 *   discover -> DiscoveredEntity -> parse -> ParsedEntity -> identify -> EntityContext
 *   -> validate (schema + rules) -> normalize -> EndpointModel[] -> emit -> OutputFile[] -> write
 */
import type { EndpointKind } from '../runtime/contract/index.js';

/** Top-level folders of endpoints/ (spec: Directory layout). */
export const TYPE_FOLDERS = ['SQL', 'Proxy', 'Static', 'Files', 'Webhooks'] as const;
export type TypeFolder = (typeof TYPE_FOLDERS)[number];

export interface DiscoveredEntity {
  /** entity.json path relative to the project root, posix separators. */
  readonly file: string;
  readonly absolutePath: string;
  readonly typeFolder: TypeFolder;
  /** Folders between the type folder and the endpoint folder (the inferred namespace segments). */
  readonly folders: readonly string[];
  /** Endpoint folder name. */
  readonly name: string;
}

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export interface ParsedEntity {
  readonly source: DiscoveredEntity;
  readonly text: string;
  /** The parsed JSON document (undefined when the file is not valid JSON). */
  readonly value: unknown;
  /**
   * Position of the value at a JSON pointer; for a pointer that does not exist, the position
   * of its closest existing parent (so "missing property" points at the enclosing object).
   */
  locate(pointer: string): SourcePosition;
  /** Position of the property *name* at a pointer (for unknown-property warnings). */
  locateKey(pointer: string): SourcePosition;
}

/** A parsed entity whose kind and route identity are known; what validation rules receive. */
export interface EntityContext {
  readonly parsed: ParsedEntity;
  readonly kind: EndpointKind;
  /** The raw JSON object (schema-validated before semantic rules run). */
  readonly config: Readonly<Record<string, unknown>>;
  readonly name: string;
  readonly namespace: string | null;
  readonly namespaceSource: 'explicit' | 'directory' | 'none';
  /** Path below /api/{env}/ in original case. */
  readonly routePath: string;
  readonly routeAliases: readonly string[];
}

export interface OutputFile {
  /** Relative to generated/, posix separators. */
  readonly path: string;
  readonly content: string | Uint8Array;
}
