/**
 * The columns SQL writes and ResponseTransforms name exist and are safe:
 *  - RequiredColumns and ColumnValidation name AllowedColumns (database name or alias);
 *  - every ColumnValidation Regex compiles as a JavaScript RegExp;
 *  - ResponseTransforms name AllowedColumns (exposed names, as the rules run after alias mapping);
 *  - Mask/Remove never hide the PrimaryKey: the key is how records are addressed, so hiding it
 *    would turn GET/PUT/DELETE /{id} into an oracle for the hidden value.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { SqlConfig } from '../../model/config.js';
import { parseColumns } from '../../model/column-spec.js';
import { DEFAULTS } from '../../model/defaults.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export const writeColumnsRule: EntityRule = {
  name: 'write-columns',
  scope: 'entity',
  codes: ['write-column-unknown', 'column-validation-regex', 'transform-column-unknown', 'transform-hides-key'],
  kinds: ['sql'],
  check(ctx) {
    const config = ctx.config as unknown as SqlConfig;
    const columns = parseColumns(config.AllowedColumns);
    const known = (name: string) => columns.some((c) => c.db.toLowerCase() === name.toLowerCase() || c.name.toLowerCase() === name.toLowerCase());
    const hint = `AllowedColumns: ${columns.map((c) => c.name).join(', ')}`;
    const out: Diagnostic[] = [];
    (config.RequiredColumns ?? []).forEach((name, i) => {
      if (!known(name)) out.push(error(ctx, 'write-column-unknown', pointer('', 'RequiredColumns', i), `RequiredColumns names '${name}', which is not one of the AllowedColumns`, { hint }));
    });
    for (const [name, rule] of Object.entries(config.ColumnValidation ?? {})) {
      const at = pointer('', 'ColumnValidation', name);
      if (!known(name)) out.push(error(ctx, 'write-column-unknown', at, `ColumnValidation names '${name}', which is not one of the AllowedColumns`, { atKey: true, hint }));
      try {
        new RegExp(rule.Regex);
      } catch (e) {
        out.push(error(ctx, 'column-validation-regex', pointer(at, 'Regex'), `ColumnValidation Regex of '${name}' is not a valid regular expression: ${(e as Error).message}`, {
          hint: 'Patterns use JavaScript RegExp syntax; in JSON a backslash is written \\\\.',
        }));
      }
    }
    const transforms = config.ResponseTransforms ?? {};
    const exposed = (name: string) => columns.some((c) => c.name === name);
    const named: [string, string][] = [
      ...(transforms.Remove ?? []).map((n, i) => [n, pointer('', 'ResponseTransforms', 'Remove', i)] as [string, string]),
      ...(transforms.Mask ?? []).map((n, i) => [n, pointer('', 'ResponseTransforms', 'Mask', i)] as [string, string]),
      ...Object.keys(transforms.Rename ?? {}).map((n) => [n, pointer('', 'ResponseTransforms', 'Rename', n)] as [string, string]),
    ];
    for (const [name, at] of named) {
      if (!exposed(name)) {
        out.push(error(ctx, 'transform-column-unknown', at, `ResponseTransforms names '${name}', which is not an exposed column`, {
          atKey: at.includes('/Rename/'),
          hint: `Transforms apply after alias mapping; use the exposed names: ${columns.map((c) => c.name).join(', ')}`,
        }));
      }
    }
    if (config.DatabaseObjectType !== 'TableValuedFunction') {
      const key = config.PrimaryKey ?? DEFAULTS.sql.PrimaryKey;
      const keyName = columns.find((c) => c.db === key)?.name ?? key;
      for (const [name, at] of named) {
        if (name === keyName && !at.includes('/Rename/')) {
          out.push(error(ctx, 'transform-hides-key', at, `ResponseTransforms hides the PrimaryKey '${keyName}'`, {
            hint: 'Records are addressed by their key (GET/PUT/DELETE /{id}); a masked or removed key would reveal itself through those routes. Rename it instead, or pick another key.',
          }));
        }
      }
    }
    return out;
  },
};
