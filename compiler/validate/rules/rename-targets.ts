/**
 * `ResponseTransforms.Rename` maps each old name to a new one; two rules onto the same new name,
 * or a rule onto a column the endpoint already exposes (SQL: an AllowedColumns name that is not
 * itself renamed or removed), would make two fields collide in one record and one of them vanish.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { ResponseTransformsConfig, SqlConfig } from '../../model/config.js';
import { parseColumn } from '../../model/column-spec.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export const renameTargetsRule: EntityRule = {
  name: 'rename-targets',
  scope: 'entity',
  codes: ['rename-target-duplicate', 'rename-onto-column'],
  kinds: ['sql', 'static', 'proxy'],
  check(ctx) {
    const transforms = ctx.config.ResponseTransforms as ResponseTransformsConfig | undefined;
    const rename = transforms?.Rename ?? {};
    const removed = new Set(transforms?.Remove ?? []);
    const columns =
      ctx.kind === 'sql'
        ? new Set(((ctx.config as unknown as SqlConfig).AllowedColumns ?? []).map((e) => parseColumn(e)?.name).filter((n): n is string => !!n))
        : new Set<string>();
    const out: Diagnostic[] = [];
    const firstSource = new Map<string, string>();
    for (const [from, to] of Object.entries(rename)) {
      const ptr = pointer('/ResponseTransforms/Rename', from);
      const earlier = firstSource.get(to);
      if (earlier !== undefined) {
        out.push(
          error(ctx, 'rename-target-duplicate', ptr, `Rename '${from}' -> '${to}': '${earlier}' is already renamed to '${to}'`, {
            hint: 'Each Rename rule needs its own new name; a record cannot hold two fields of one name.',
          }),
        );
        continue;
      }
      firstSource.set(to, from);
      if (to !== from && columns.has(to) && !(to in rename) && !removed.has(to)) {
        out.push(
          error(ctx, 'rename-onto-column', ptr, `Rename '${from}' -> '${to}': '${to}' is already an exposed column`, {
            hint: `Pick another name, or Remove (or Rename) the column '${to}' too.`,
          }),
        );
      }
    }
    return out;
  },
};
