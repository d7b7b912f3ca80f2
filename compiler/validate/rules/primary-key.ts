/**
 * The PrimaryKey (default Id) of a Table or View endpoint is one of its AllowedColumns (database name).
 * WriteMode Table without a declared key is reported as such (it writes by the key).
 */
import type { SqlConfig } from '../../model/config.js';
import { parseColumns } from '../../model/column-spec.js';
import { DEFAULTS } from '../../model/defaults.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export const primaryKeyRule: EntityRule = {
  name: 'primary-key',
  scope: 'entity',
  codes: ['primary-key-not-allowed'],
  kinds: ['sql'],
  check(ctx) {
    const config = ctx.config as unknown as SqlConfig;
    if (config.DatabaseObjectType === 'TableValuedFunction') return [];
    const key = config.PrimaryKey ?? DEFAULTS.sql.PrimaryKey;
    const columns = parseColumns(config.AllowedColumns);
    if (columns.some((c) => c.db === key)) return [];
    const byAlias = columns.find((c) => c.name === key);
    const explicit = config.PrimaryKey !== undefined;
    const hint = byAlias
      ? `'${key}' is an alias; use the database column name '${byAlias.db}'.`
      : explicit
        ? `Add '${key}' to AllowedColumns.`
        : `PrimaryKey defaults to '${key}'; set PrimaryKey to the key column or add '${key}' to AllowedColumns.`;
    if (!explicit && config.WriteMode === 'Table' && !byAlias) {
      // Table mode updates and deletes rows by their key: say that it needs one, not only that the default is missing.
      return [
        error(ctx, 'primary-key-not-allowed', '/WriteMode', `WriteMode 'Table' needs a PrimaryKey: none is declared and the default '${key}' is not one of the AllowedColumns`, {
          atKey: true,
          hint: `Set "PrimaryKey" to the key column (one of the AllowedColumns); Table mode reads, updates and deletes rows by it.`,
        }),
      ];
    }
    return [
      error(ctx, 'primary-key-not-allowed', explicit ? '/PrimaryKey' : '/AllowedColumns', `PrimaryKey '${key}' is not one of the AllowedColumns`, { hint }),
    ];
  },
};
