/**
 * The per-entity part of a build, done once per entity and reused while its key is unchanged:
 * own validation (schema + the rules that read only that entity), normalize, the printed route
 * module. An entity whose model or verdict reads other entities (SQL with Relationships,
 * Composite: their targets' ids) is never taken from the cache. What crosses entities (project
 * rules, rules marked readsOtherEntities, the aggregated outputs) runs on every build over all.
 * A full build is the same code with an empty cache, so both give the same bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EndpointModel } from '../runtime/contract/index.js';
import { hasErrors } from './diagnostics.js';
import { routeModuleSource, type RouteModuleSource } from './emit/route-files.js';
import type { EntityRecord, EntityRecords } from './entity-cache.js';
import { containedPath } from '../runtime/contract/contained-path.js';
import { normalizeOne } from './model/normalize.js';
import type { EntityContext } from './stages.js';
import { validateEntity, type ValidateOptions } from './validate/index.js';
import { isSkipped } from './validate/rules/index.js';

/** Whether the entity's own verdict, model and route module depend on it alone. */
export function standsAlone(ctx: EntityContext): boolean {
  if (ctx.kind === 'composite') return false;
  return !(ctx.kind === 'sql' && ctx.config.Relationships !== undefined);
}

/** The bytes of a Static ContentFile (the static-content rule reads it), or a marker when absent. */
function referencedBytes(ctx: EntityContext): Buffer | string {
  const file = ctx.config.ContentFile;
  if (ctx.kind !== 'static' || typeof file !== 'string') return '';
  const relative = containedPath(file);
  if (relative === null) return 'outside';
  try {
    return readFileSync(path.join(path.dirname(ctx.parsed.source.absolutePath), relative));
  } catch {
    return 'missing';
  }
}

/**
 * SHA-256 over what the entity's own results are made from: `inputs` (the tool and the options),
 * its path (identity comes from the folders), its text and any file it references.
 */
export function entityKey(ctx: EntityContext, inputs: string): string {
  return createHash('sha256')
    .update(`${inputs}\0${ctx.parsed.source.file}\0${ctx.parsed.text}\0`)
    .update(referencedBytes(ctx))
    .digest('hex');
}

/** Validate alone, normalize and print an entity that stands alone (its record without the key). */
function analyze(ctx: EntityContext, options: ValidateOptions): Omit<EntityRecord, 'key'> {
  const verdict = validateEntity(ctx, undefined, options);
  if (hasErrors(verdict.diagnostics) || isSkipped(ctx)) return { ...verdict, model: null, route: null };
  const model = normalizeOne(ctx, []);
  return { ...verdict, model, route: routeModuleSource(model) };
}

export interface Analysis {
  /** Per context (same order): the entity's own results; for one that does not stand alone, model and route are null. */
  readonly results: ReadonlyArray<Omit<EntityRecord, 'key'>>;
  /** The records to remember: entities that stand alone, keyed by file. */
  readonly records: EntityRecords;
  /** How many entities were analysed now (the rest came from the cache). */
  readonly analysed: number;
}

export function analyzeEntities(
  contexts: readonly EntityContext[],
  options: ValidateOptions & { readonly cache?: { readonly records: EntityRecords; readonly inputs: string } },
): Analysis {
  const records = new Map<string, EntityRecord>();
  let analysed = 0;
  const results = contexts.map((ctx) => {
    if (!standsAlone(ctx) || !options.cache) {
      analysed += 1;
      return standsAlone(ctx) ? analyze(ctx, options) : { ...validateEntity(ctx, undefined, options), model: null, route: null };
    }
    const key = entityKey(ctx, options.cache.inputs);
    const file = ctx.parsed.source.file;
    let record = options.cache.records.get(file);
    if (record?.key !== key) {
      analysed += 1;
      record = { key, ...analyze(ctx, options) };
    }
    records.set(file, record);
    return record;
  });
  return { results, records, analysed };
}

/** Every served entity's model (cached or normalized now against all), sorted by id, and its route module. */
export function modelsOf(
  contexts: readonly EntityContext[],
  results: Analysis['results'],
): { models: EndpointModel[]; routeSource: (model: EndpointModel) => RouteModuleSource } {
  const served = contexts.filter((c) => !isSkipped(c));
  const routes = new Map<EndpointModel, RouteModuleSource>();
  const models = contexts.flatMap((ctx, i) => {
    if (isSkipped(ctx)) return [];
    const result = results[i];
    const model = result?.model ?? normalizeOne(ctx, served);
    routes.set(model, result?.route ?? routeModuleSource(model));
    return [model];
  });
  models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { models, routeSource: (model) => routes.get(model) ?? routeModuleSource(model) };
}
