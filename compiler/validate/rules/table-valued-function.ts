/**
 * Table-valued function endpoints (spec: SQL rule 2) are read-only (GET), do not use a
 * PrimaryKey and need FunctionParameters; other SQL endpoints do not use FunctionParameters.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { SqlConfig } from '../../model/config.js';
import { pointer } from '../pointer.js';
import { error, warning } from '../report.js';
import type { EntityRule } from '../rule.js';

export const tableValuedFunctionRule: EntityRule = {
  name: 'table-valued-function',
  scope: 'entity',
  codes: ['tvf-methods', 'tvf-primary-key', 'function-parameters-required', 'function-parameters-unused'],
  kinds: ['sql'],
  check(ctx) {
    const config = ctx.config as unknown as SqlConfig;
    const out: Diagnostic[] = [];
    if (config.DatabaseObjectType !== 'TableValuedFunction') {
      if (config.FunctionParameters !== undefined) {
        out.push(
          warning(ctx, 'function-parameters-unused', '/FunctionParameters', 'FunctionParameters is ignored: the endpoint is not a table-valued function', {
            atKey: true,
            hint: 'Set "DatabaseObjectType": "TableValuedFunction" or remove FunctionParameters.',
          }),
        );
      }
      return out;
    }
    (config.AllowedMethods ?? []).forEach((method, i) => {
      if (method === 'GET') return;
      out.push(
        error(ctx, 'tvf-methods', pointer('', 'AllowedMethods', i), `Table-valued function endpoints are read-only: ${method} is not allowed`, {
          hint: 'AllowedMethods may contain only GET.',
        }),
      );
    });
    if (config.PrimaryKey !== undefined) {
      out.push(
        warning(ctx, 'tvf-primary-key', '/PrimaryKey', 'PrimaryKey is not used by table-valued function endpoints', {
          atKey: true,
          hint: 'Remove PrimaryKey; path segments map to FunctionParameters with Source "Path".',
        }),
      );
    }
    if (config.FunctionParameters === undefined) {
      out.push(
        error(ctx, 'function-parameters-required', '/FunctionParameters', 'FunctionParameters is required for table-valued function endpoints', {
          hint: 'Use an empty array for a function without parameters.',
        }),
      );
    }
    return out;
  },
};
