/**
 * FunctionParameters are well formed: unique names; Path parameters have a unique Position
 * (>= 1, schema); Query parameters have none; ValidationPattern compiles as a JavaScript
 * RegExp; DefaultValue `DEFAULT` only on non-required parameters.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { SqlConfig } from '../../model/config.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export const functionParametersRule: EntityRule = {
  name: 'function-parameters',
  scope: 'entity',
  codes: ['function-parameter-duplicate', 'function-parameter-position', 'function-parameter-pattern', 'function-parameter-default'],
  kinds: ['sql'],
  check(ctx) {
    const config = ctx.config as unknown as SqlConfig;
    if (config.DatabaseObjectType !== 'TableValuedFunction') return [];
    const out: Diagnostic[] = [];
    const names = new Map<string, number>();
    const positions = new Map<number, number>();
    (config.FunctionParameters ?? []).forEach((p, i) => {
      const at = (field: string) => pointer('', 'FunctionParameters', i, field);
      const key = p.Name.toLowerCase();
      const firstName = names.get(key);
      if (firstName !== undefined) {
        out.push(error(ctx, 'function-parameter-duplicate', at('Name'), `Function parameter '${p.Name}' is already defined at FunctionParameters[${firstName}]`));
      } else names.set(key, i);

      if (p.Source === 'Path') {
        if (p.Position === undefined) {
          out.push(
            error(ctx, 'function-parameter-position', pointer('', 'FunctionParameters', i), `Path parameter '${p.Name}' needs a Position`, {
              hint: 'Position 1 is the first path segment after the endpoint path.',
            }),
          );
        } else {
          const firstPos = positions.get(p.Position);
          if (firstPos !== undefined) {
            out.push(error(ctx, 'function-parameter-position', at('Position'), `Position ${p.Position} of '${p.Name}' is already used by FunctionParameters[${firstPos}]`));
          } else positions.set(p.Position, i);
        }
      } else if (p.Position !== undefined) {
        out.push(
          error(ctx, 'function-parameter-position', at('Position'), `Query parameter '${p.Name}' must not have a Position`, {
            hint: 'Position applies to Source "Path" only; the query parameter is named like the function parameter.',
          }),
        );
      }

      if (p.ValidationPattern !== undefined) {
        try {
          new RegExp(p.ValidationPattern);
        } catch (e) {
          out.push(
            error(ctx, 'function-parameter-pattern', at('ValidationPattern'), `ValidationPattern of '${p.Name}' is not a valid regular expression: ${(e as Error).message}`, {
              hint: 'Patterns use JavaScript RegExp syntax; in JSON a backslash is written \\\\.',
            }),
          );
        }
      }
      if (p.Required === true && p.DefaultValue === 'DEFAULT') {
        out.push(
          error(ctx, 'function-parameter-default', at('DefaultValue'), `Required parameter '${p.Name}' cannot use DEFAULT`, {
            hint: 'DEFAULT passes the function default when the caller omits the value; set Required to false or remove DefaultValue.',
          }),
        );
      }
    });
    return out;
  },
};
