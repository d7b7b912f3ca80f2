/**
 * Stage 4: validation. Schema validation of every entity, then the semantic rules: entity
 * rules on schema-valid entities (identity rules on all), project rules over all entities
 * that take part in routing. Returns every diagnostic; nothing throws.
 */
import { hasErrors, type Diagnostic } from '../diagnostics.js';
import type { EntityContext } from '../stages.js';
import type { Project, Rule } from './rule.js';
import { isSkipped, RULES } from './rules/index.js';
import { validateSchema } from './schema.js';
import { DEFAULT_BLOCKED_RANGES } from '../../runtime/contract/network-ranges.js';

export { isSkipped } from './rules/index.js';

/** Entities the gateway leaves out (reserved namespace or name); the pipeline drops them. */
export function skippedEntities(contexts: readonly EntityContext[]): EntityContext[] {
  return contexts.filter(isSkipped);
}

export interface ValidateOptions {
  /** Default: the runtime's DEFAULT_BLOCKED_RANGES. */
  readonly blockedIpRanges?: readonly string[];
}

export function validate(contexts: readonly EntityContext[], rules: readonly Rule[] = RULES, options: ValidateOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const schemaValid = new Set<EntityContext>();
  for (const ctx of contexts) {
    const found = validateSchema(ctx);
    out.push(...found);
    if (!hasErrors(found)) schemaValid.add(ctx);
  }
  const project: Project = {
    contexts: contexts.filter((c) => !isSkipped(c)),
    isSchemaValid: (ctx) => schemaValid.has(ctx),
    blockedIpRanges: options.blockedIpRanges ?? DEFAULT_BLOCKED_RANGES,
  };
  for (const rule of rules) {
    if (rule.scope === 'project') {
      out.push(...rule.check(project));
      continue;
    }
    for (const ctx of contexts) {
      if (rule.kinds && !rule.kinds.includes(ctx.kind)) continue;
      if (!rule.evenIfSchemaInvalid && !schemaValid.has(ctx)) continue;
      // A skipped entity only hears why it is skipped, not about its content.
      if (isSkipped(ctx) && !rule.evenIfSchemaInvalid) continue;
      out.push(...rule.check(ctx, project));
    }
  }
  return out;
}
