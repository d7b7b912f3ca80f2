/** Configured methods must be in the kind's column of the spec's method support matrix. */
import { METHOD_MATRIX } from '../../../runtime/contract/index.js';
import type { Diagnostic } from '../../diagnostics.js';
import { KIND_LABEL } from '../kind-label.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export const methodMatrixRule: EntityRule = {
  name: 'method-matrix',
  scope: 'entity',
  codes: ['method-not-supported'],
  kinds: ['sql', 'proxy', 'composite'],
  check(ctx) {
    const property = ctx.kind === 'sql' ? 'AllowedMethods' : 'Methods';
    const methods = ctx.config[property];
    if (!Array.isArray(methods)) return [];
    const supported = METHOD_MATRIX[ctx.kind];
    const out: Diagnostic[] = [];
    methods.forEach((method: string, i) => {
      if ((supported as readonly string[]).includes(method)) return;
      out.push(
        error(ctx, 'method-not-supported', pointer('', property, i), `${KIND_LABEL[ctx.kind]} endpoints do not support ${method}`, {
          hint: `Supported: ${supported.join(', ')}.`,
        }),
      );
    });
    return out;
  },
};
