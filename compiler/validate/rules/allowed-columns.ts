/**
 * SQL AllowedColumns entries are `Column` or `Column;Alias` identifiers other than `__proto__`;
 * exposed names are unique.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { SqlConfig } from '../../model/config.js';
import { parseColumn } from '../../model/column-spec.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export const allowedColumnsRule: EntityRule = {
  name: 'allowed-columns',
  scope: 'entity',
  codes: ['allowed-column-format', 'allowed-column-duplicate'],
  kinds: ['sql'],
  check(ctx) {
    const config = ctx.config as unknown as SqlConfig;
    const out: Diagnostic[] = [];
    const exposed = new Map<string, number>();
    config.AllowedColumns.forEach((entry, i) => {
      const ptr = pointer('', 'AllowedColumns', i);
      const column = parseColumn(entry);
      if (!column) {
        out.push(
          error(ctx, 'allowed-column-format', ptr, `AllowedColumns entry '${entry}' is not 'Column' or 'Column;Alias'`, {
            hint: 'Column names and aliases start with a letter or underscore and contain only letters, digits and underscores.',
          }),
        );
        return;
      }
      if (column.db === '__proto__' || column.name === '__proto__') {
        out.push(
          error(ctx, 'allowed-column-format', ptr, `AllowedColumns entry '${entry}' names '__proto__', which a JavaScript object cannot hold as a field`, {
            hint: "Assigning it sets a row's prototype instead (the field vanishes, or shadows others): rename the column in a view.",
          }),
        );
        return;
      }
      const key = column.name.toLowerCase();
      const first = exposed.get(key);
      if (first !== undefined) {
        out.push(
          error(ctx, 'allowed-column-duplicate', ptr, `Column name '${column.name}' is already exposed by AllowedColumns[${first}]`, {
            hint: 'Exposed names (aliases, or column names without alias) must be unique, ignoring case.',
          }),
        );
      } else exposed.set(key, i);
    });
    return out;
  },
};
