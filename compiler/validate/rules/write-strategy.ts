/**
 * A SQL endpoint that accepts writes needs a strategy: a Procedure, or WriteMode Table.
 * A Procedure next to WriteMode Table is never called.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { SqlConfig } from '../../model/config.js';
import { error, warning } from '../report.js';
import type { EntityRule } from '../rule.js';

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'MERGE'];

export const writeStrategyRule: EntityRule = {
  name: 'write-strategy',
  scope: 'entity',
  codes: ['write-strategy-missing', 'procedure-unused'],
  kinds: ['sql'],
  check(ctx) {
    const config = ctx.config as unknown as SqlConfig;
    if (config.DatabaseObjectType === 'TableValuedFunction') return [];
    const out: Diagnostic[] = [];
    const writes = (config.AllowedMethods ?? []).filter((m) => WRITE_METHODS.includes(m));
    if (config.WriteMode === 'Table') {
      if (config.Procedure !== undefined) {
        out.push(
          warning(ctx, 'procedure-unused', '/Procedure', 'Procedure is not used when WriteMode is Table', {
            atKey: true,
            hint: 'Remove Procedure, or remove WriteMode to write through the procedure.',
          }),
        );
      }
    } else if (writes.length > 0 && config.Procedure === undefined) {
      out.push(
        error(ctx, 'write-strategy-missing', '/AllowedMethods', `AllowedMethods contains ${writes.join(', ')} but the endpoint has no Procedure`, {
          hint: 'Set Procedure to the stored procedure that performs writes, or set "WriteMode": "Table".',
        }),
      );
    }
    return out;
  },
};
