/** Every namespace segment starts with a letter and holds only letters, digits, underscores; 50 chars max. */
import type { Diagnostic } from '../../diagnostics.js';
import type { EntityContext } from '../../stages.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';
import { NAMESPACE_MAX_LENGTH, SEGMENT, segmentMessage } from './naming.js';

/** Where a namespace problem is reported: the Namespace value, or the file (folder-derived). */
export function namespaceSite(ctx: EntityContext): { ptr: string; wholeFile: boolean; hint: string } {
  return ctx.namespaceSource === 'explicit'
    ? { ptr: '/Namespace', wholeFile: false, hint: 'Segments are separated by /, e.g. "Sales/Reports".' }
    : {
        ptr: '',
        wholeFile: true,
        hint: 'The namespace comes from the folders between the type folder and the endpoint folder; rename the folder or set Namespace.',
      };
}

export const namespaceSegmentRule: EntityRule = {
  name: 'namespace-segment',
  scope: 'entity',
  codes: ['namespace-segment', 'namespace-length'],
  evenIfSchemaInvalid: true,
  check(ctx) {
    const ns = ctx.namespace;
    if (ns === null) return [];
    const site = namespaceSite(ctx);
    const out: Diagnostic[] = [];
    for (const segment of ns.split('/')) {
      if (!SEGMENT.test(segment)) out.push(error(ctx, 'namespace-segment', site.ptr, segmentMessage(segment), site));
    }
    if (ns.length > NAMESPACE_MAX_LENGTH) {
      out.push(
        error(
          ctx,
          'namespace-length',
          site.ptr,
          `Namespace '${ns}' is ${ns.length} characters long; the maximum is ${NAMESPACE_MAX_LENGTH}`,
          site,
        ),
      );
    }
    return out;
  },
};
