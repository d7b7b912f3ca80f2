/**
 * A SQL endpoint that accepts writes needs a strategy: a Procedure, or WriteMode Table.
 * A Procedure next to WriteMode Table is never called. A procedure receives the verb as @Method,
 * so an allowed column of that name (any case: SQL Server parameter names ignore it) cannot be one
 * of its parameters: the runtime refuses a body value for it (422).
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { SqlConfig } from '../../model/config.js';
import { error, warning } from '../report.js';
import type { EntityRule } from '../rule.js';

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'MERGE'];

export const writeStrategyRule: EntityRule = {
  name: 'write-strategy',
  scope: 'entity',
  codes: ['write-strategy-missing', 'procedure-unused', 'procedure-method-column'],
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
    } else if (writes.length > 0 && config.Procedure !== undefined) {
      const index = (config.AllowedColumns ?? []).findIndex((c) => (c.split(';')[0] ?? '').trim().toLowerCase() === 'method');
      if (index >= 0) {
        out.push(
          warning(ctx, 'procedure-method-column', `/AllowedColumns/${index}`, 'Column Method cannot be written through the procedure: its parameter @Method carries the verb', {
            hint: 'Writes with a value for it are refused (422); set "WriteMode": "Table" to write it like any other column.',
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
