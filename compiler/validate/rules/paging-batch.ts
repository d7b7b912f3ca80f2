/**
 * The settings of keyset paging and batch writes apply where they can work:
 *  - `Paging: Keyset` pages by the key, so a table-valued function (no key) ignores it;
 *  - `MaxBatchRows` bounds batch writes, which only Table mode (`WriteMode: Table`) takes.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { SqlConfig } from '../../model/config.js';
import { warning } from '../report.js';
import type { EntityRule } from '../rule.js';

export const pagingBatchRule: EntityRule = {
  name: 'paging-batch',
  scope: 'entity',
  codes: ['paging-keyset-unused', 'max-batch-rows-unused'],
  kinds: ['sql'],
  check(ctx) {
    const config = ctx.config as unknown as SqlConfig;
    const out: Diagnostic[] = [];
    if (config.Paging === 'Keyset' && config.DatabaseObjectType === 'TableValuedFunction') {
      out.push(warning(ctx, 'paging-keyset-unused', '/Paging', 'Paging Keyset is ignored: a table-valued function has no key to page by', {
        atKey: true,
        hint: 'Remove "Paging" (its nextLink pages with $skip).',
      }));
    }
    if (config.MaxBatchRows !== undefined && config.WriteMode !== 'Table') {
      out.push(warning(ctx, 'max-batch-rows-unused', '/MaxBatchRows', 'MaxBatchRows is ignored: only WriteMode Table takes batch writes', {
        atKey: true,
        hint: 'Set "WriteMode": "Table" or remove MaxBatchRows.',
      }));
    }
    return out;
  },
};
