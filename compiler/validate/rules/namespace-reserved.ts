/**
 * Reserved names (spec: Namespaces rule 3): a namespace whose first segment is reserved, or a
 * non-namespaced endpoint named like one, would shadow the gateway's own routes. The spec's
 * loader skips such an endpoint; we report an error (so `wharf check` fails) and the pipeline
 * leaves the endpoint out (see `isSkipped`).
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { EntityContext } from '../../stages.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';
import { namespaceSite } from './namespace-segment.js';
import { isReserved, reservedMessage } from './naming.js';

function reservedSegment(ctx: EntityContext): string | null {
  const first = ctx.namespace?.split('/')[0];
  return first !== undefined && isReserved(first) ? first : null;
}

/** Files endpoints live under `files/`, so their own name cannot shadow a gateway route. */
function reservedName(ctx: EntityContext): boolean {
  return ctx.namespace === null && ctx.kind !== 'files' && isReserved(ctx.name);
}

/** Entities the gateway does not serve: left out of routing, references and the model. */
export function isSkipped(ctx: EntityContext): boolean {
  return reservedSegment(ctx) !== null || reservedName(ctx);
}

export const namespaceReservedRule: EntityRule = {
  name: 'namespace-reserved',
  scope: 'entity',
  codes: ['namespace-reserved', 'endpoint-name-reserved'],
  evenIfSchemaInvalid: true,
  check(ctx) {
    const out: Diagnostic[] = [];
    const segment = reservedSegment(ctx);
    if (segment !== null) {
      const site = namespaceSite(ctx);
      out.push(
        error(ctx, 'namespace-reserved', site.ptr, reservedMessage(segment), {
          ...site,
          hint: 'It would shadow a gateway route (the runtime skips it at load). Choose another namespace.',
        }),
      );
    }
    if (reservedName(ctx)) {
      out.push(
        error(ctx, 'endpoint-name-reserved', '', `'${ctx.name}' is a reserved name and cannot be a non-namespaced endpoint`, {
          wholeFile: true,
          hint: 'It would shadow a gateway route (the runtime skips it at load). Rename the folder or give it a namespace.',
        }),
      );
    }
    return out;
  },
};
