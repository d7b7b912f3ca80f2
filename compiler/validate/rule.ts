/**
 * Semantic rules. An entity rule checks one schema-valid entity (it may look at the others
 * through `project`); a project rule checks all entities together (duplicates).
 */
import type { EndpointKind } from '../../runtime/contract/index.js';
import type { DbSnapshot } from '../../runtime/contract/db-snapshot.js';
import type { Diagnostic } from '../diagnostics.js';
import type { EntityContext } from '../stages.js';

export interface Project {
  /** Entities that take part in routing (skipped ones left out), in file order. */
  readonly contexts: readonly EntityContext[];
  /** Whether an entity passed schema validation (its config has the schema's shape). */
  isSchemaValid(ctx: EntityContext): boolean;
  /** blockedIpRanges of environments/network-access-policy.json (or the runtime's default). */
  readonly blockedIpRanges: readonly string[];
  /** endpoints/database.snapshot.json when the project has one (rules reading it mark readsOtherEntities). */
  readonly dbSnapshot?: DbSnapshot | null;
}

export interface EntityRule {
  readonly name: string;
  readonly scope: 'entity';
  /** Every diagnostic code the rule can emit (docs/diagnostics.md lists them all). */
  readonly codes: readonly string[];
  /** Kinds the rule applies to; all when absent. */
  readonly kinds?: readonly EndpointKind[];
  /** Identity rules (namespace, name) also run on entities with schema errors. */
  readonly evenIfSchemaInvalid?: boolean;
  /**
   * The rule looks at other entities (`project.contexts`, `project.isSchemaValid`), so its verdict
   * on an entity can change when another one does: it runs on every build over all entities. The
   * other entity rules read only their entity (and the build's inputs), so an incremental build
   * may reuse their verdict while the entity's bytes are unchanged (compiler/endpoint-analysis.ts).
   */
  readonly readsOtherEntities?: boolean;
  check(ctx: EntityContext, project: Project): Diagnostic[];
}

export interface ProjectRule {
  readonly name: string;
  readonly scope: 'project';
  readonly codes: readonly string[];
  check(project: Project): Diagnostic[];
}

export type Rule = EntityRule | ProjectRule;
