/**
 * `$expand` Relationships: the source and target are SQL Table/View endpoints, the target
 * exists, both columns are allowed on their side (database names), names are unique and do
 * not shadow a column.
 */
import type { SqlColumn } from '../../../runtime/contract/index.js';
import type { Diagnostic } from '../../diagnostics.js';
import type { SqlConfig } from '../../model/config.js';
import { parseColumns } from '../../model/column-spec.js';
import { findByRoute } from '../../model/references.js';
import type { EntityContext } from '../../stages.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

function columnProblem(columns: readonly SqlColumn[], column: string, side: string): { message: string; hint: string } | null {
  if (columns.some((c) => c.db === column)) return null;
  const alias = columns.find((c) => c.name === column);
  return {
    message: `${side} '${column}' is not one of the AllowedColumns of ${side === 'LocalColumn' ? 'this endpoint' : 'the target'}`,
    hint: alias ? `'${column}' is an alias; use the database column name '${alias.db}'.` : 'Relationship columns must be listed in AllowedColumns (database names).',
  };
}

export const relationshipsRule: EntityRule = {
  name: 'relationships',
  scope: 'entity',
  readsOtherEntities: true,
  codes: ['relationship-not-supported', 'relationship-target', 'relationship-column', 'relationship-duplicate'],
  kinds: ['sql'],
  check(ctx, project) {
    const config = ctx.config as unknown as SqlConfig;
    const relationships = config.Relationships ?? [];
    if (relationships.length === 0) return [];
    if (config.DatabaseObjectType === 'TableValuedFunction') {
      return [
        error(ctx, 'relationship-not-supported', '/Relationships', '$expand is not available on table-valued function endpoints', {
          hint: 'Remove Relationships or expose the data through a Table or View endpoint.',
        }),
      ];
    }
    const out: Diagnostic[] = [];
    const columns = parseColumns(config.AllowedColumns);
    const names = new Map<string, number>();
    relationships.forEach((rel, i) => {
      const at = (field: string) => pointer('', 'Relationships', i, field);
      const key = rel.Name.toLowerCase();
      if (names.has(key)) {
        out.push(error(ctx, 'relationship-duplicate', at('Name'), `Relationship '${rel.Name}' is already defined at Relationships[${names.get(key)}]`));
      } else if (columns.some((c) => c.name.toLowerCase() === key)) {
        out.push(error(ctx, 'relationship-duplicate', at('Name'), `Relationship name '${rel.Name}' is also an exposed column name`, { hint: 'The expanded object is written under the relationship name; choose a name no column uses.' }));
      }
      names.set(key, names.get(key) ?? i);

      const local = columnProblem(columns, rel.LocalColumn, 'LocalColumn');
      if (local) out.push(error(ctx, 'relationship-column', at('LocalColumn'), local.message, { hint: local.hint }));

      const target = resolveTarget(rel.Target, project.contexts);
      if (typeof target === 'string') {
        out.push(error(ctx, 'relationship-target', at('Target'), target, { hint: "Target is '{namespace}/{endpoint}' or '{endpoint}' of a SQL endpoint." }));
        return;
      }
      const targetConfig = target.config as unknown as SqlConfig;
      if (targetConfig.DatabaseObjectType === 'TableValuedFunction') {
        out.push(error(ctx, 'relationship-not-supported', at('Target'), `Relationship target '${rel.Target}' is a table-valued function endpoint`, { hint: 'Targets must be Table or View endpoints.' }));
        return;
      }
      if (!project.isSchemaValid(target)) return; // its own diagnostics say why
      const remote = columnProblem(parseColumns(targetConfig.AllowedColumns), rel.TargetColumn, 'TargetColumn');
      if (remote) out.push(error(ctx, 'relationship-column', at('TargetColumn'), remote.message, { hint: remote.hint }));
    });
    return out;
  },
};

/** The target SQL endpoint, or a message saying why there is none. */
function resolveTarget(ref: string, contexts: readonly EntityContext[]): EntityContext | string {
  const sql = findByRoute(contexts, ref, ['sql']);
  if (sql[0]) return sql[0];
  const other = findByRoute(contexts, ref)[0];
  if (other) return `Relationship target '${ref}' is a ${other.kind} endpoint, not a SQL endpoint`;
  return `Relationship target '${ref}' is not a SQL endpoint of this project`;
}
