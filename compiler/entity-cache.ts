/**
 * The incremental build's memory per entity, `<root>/.wharf/entities.json`: for every entity.json
 * its key (compiler/endpoint-analysis.ts: a SHA-256 over everything its own verdict, model and
 * route module are made from) and those results. Records are pure functions of their keys, so a
 * hit may be reused as is; a record file of another version or tool, or one that does not parse,
 * counts as empty (a full build). Not committed (.gitignore).
 */
import { readFile } from 'node:fs/promises';
import { writeThroughTemp } from './atomic-write.js';
import path from 'node:path';
import type { EndpointModel } from '../runtime/contract/index.js';
import type { Diagnostic } from './diagnostics.js';
import type { RouteModuleSource } from './emit/route-files.js';

const CACHE_VERSION = 1;
const FILE = 'entities.json';

export interface EntityRecord {
  readonly key: string;
  /** Schema and own-entity rule diagnostics (validateEntity). */
  readonly diagnostics: readonly Diagnostic[];
  readonly schemaValid: boolean;
  /** Null when the entity has errors of its own or is skipped (reserved name). */
  readonly model: EndpointModel | null;
  readonly route: RouteModuleSource | null;
}

/** entity.json path (relative to the root) -> its record. */
export type EntityRecords = ReadonlyMap<string, EntityRecord>;

interface CacheFile {
  readonly version: number;
  readonly tool: string;
  readonly records: Record<string, EntityRecord>;
}

export async function readEntityCache(dir: string, tool: string): Promise<EntityRecords> {
  try {
    const data = JSON.parse(await readFile(path.join(dir, FILE), 'utf8')) as CacheFile;
    if (data.version !== CACHE_VERSION || data.tool !== tool || typeof data.records !== 'object' || data.records === null) return new Map();
    return new Map(Object.entries(data.records).filter(([, r]) => typeof r?.key === 'string' && Array.isArray(r.diagnostics)));
  } catch {
    return new Map();
  }
}

export async function writeEntityCache(dir: string, tool: string, records: EntityRecords): Promise<void> {
  const data: CacheFile = { version: CACHE_VERSION, tool, records: Object.fromEntries([...records].sort(([a], [b]) => (a < b ? -1 : 1))) };
  await writeThroughTemp(path.join(dir, FILE), JSON.stringify(data));
}
