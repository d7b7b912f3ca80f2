/**
 * Stage 4: validation. Per entity: schema validation, then the entity rules that read only that
 * entity (identity rules even on schema-invalid ones); across entities: the project rules and the
 * entity rules that look at other entities, over all entities that take part in routing. Returns
 * every diagnostic; nothing throws. The split lets an incremental build reuse an unchanged
 * entity's own verdict while always re-running what crosses entities.
 */
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import type { EntityContext } from '../stages.js';
import type { EntityRule, Project, Rule } from './rule.js';
import { isSkipped, RULES } from './rules/index.js';
import { validateSchema } from './schema.js';
import { DEFAULT_BLOCKED_RANGES } from '../../runtime/contract/network-ranges.js';
import type { DbSnapshot } from '../../runtime/contract/db-snapshot.js';

export { isSkipped } from './rules/index.js';

/** Entities the gateway leaves out (reserved namespace or name); the pipeline drops them. */
export function skippedEntities(contexts: readonly EntityContext[]): EntityContext[] {
  return contexts.filter(isSkipped);
}

export interface ValidateOptions {
  /** Default: the runtime's DEFAULT_BLOCKED_RANGES. */
  readonly blockedIpRanges?: readonly string[];
  /** The project's database snapshot (compiler/db-snapshot/read.ts); none = columns are not checked against a catalogue. */
  readonly dbSnapshot?: DbSnapshot | null;
}

/** An entity's own verdict: what validateEntity found, and whether it has the schema's shape. */
export interface EntityVerdict {
  readonly diagnostics: Diagnostic[];
  readonly schemaValid: boolean;
}

function applies(rule: EntityRule, ctx: EntityContext, schemaValid: boolean): boolean {
  if (rule.kinds && !rule.kinds.includes(ctx.kind)) return false;
  if (!rule.evenIfSchemaInvalid && !schemaValid) return false;
  // A skipped entity only hears why it is skipped, not about its content.
  return !(isSkipped(ctx) && !rule.evenIfSchemaInvalid);
}

/** Schema validation and the entity rules that read only `ctx`. */
export function validateEntity(ctx: EntityContext, rules: readonly Rule[] = RULES, options: ValidateOptions = {}): EntityVerdict {
  const diagnostics = validateSchema(ctx);
  const schemaValid = !hasErrors(diagnostics);
  // A rule that reads other entities without saying so would make cached verdicts stale: refuse it.
  const alone: Project = {
    get contexts(): never {
      throw new Error('validate: a rule read other entities; mark it readsOtherEntities');
    },
    isSchemaValid: (other) => {
      if (other !== ctx) throw new Error('validate: a rule read other entities; mark it readsOtherEntities');
      return schemaValid;
    },
    blockedIpRanges: options.blockedIpRanges ?? DEFAULT_BLOCKED_RANGES,
    get dbSnapshot(): never {
      throw new Error('validate: a rule read the database snapshot; mark it readsOtherEntities');
    },
  };
  for (const rule of rules) {
    if (rule.scope !== 'entity' || rule.readsOtherEntities || !applies(rule, ctx, schemaValid)) continue;
    diagnostics.push(...rule.check(ctx, alone));
  }
  return { diagnostics, schemaValid };
}

/** The project rules and the entity rules that look at other entities, over every entity. */
export function validateAcross(
  contexts: readonly EntityContext[],
  isSchemaValid: (ctx: EntityContext) => boolean,
  rules: readonly Rule[] = RULES,
  options: ValidateOptions = {},
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const project: Project = {
    contexts: contexts.filter((c) => !isSkipped(c)),
    isSchemaValid,
    blockedIpRanges: options.blockedIpRanges ?? DEFAULT_BLOCKED_RANGES,
    dbSnapshot: options.dbSnapshot ?? null,
  };
  for (const rule of rules) {
    if (rule.scope === 'project') {
      out.push(...rule.check(project));
      continue;
    }
    if (!rule.readsOtherEntities) continue;
    for (const ctx of contexts) if (applies(rule, ctx, isSchemaValid(ctx))) out.push(...rule.check(ctx, project));
  }
  return out;
}

export function validate(contexts: readonly EntityContext[], rules: readonly Rule[] = RULES, options: ValidateOptions = {}): Diagnostic[] {
  const verdicts = new Map(contexts.map((ctx) => [ctx, validateEntity(ctx, rules, options)] as const));
  return [
    ...[...verdicts.values()].flatMap((v) => v.diagnostics),
    ...validateAcross(contexts, (ctx) => verdicts.get(ctx)?.schemaValid === true, rules, options),
  ];
}
