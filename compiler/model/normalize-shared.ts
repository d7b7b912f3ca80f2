/** Pieces of normalization shared by several kinds. */
import type { EndpointKind, EndpointModel, ResponseTransforms, SqlEndpoint } from '../../runtime/contract/index.js';
import type { EntityContext } from '../stages.js';
import type { ResponseTransformsConfig } from './config.js';
import { DEFAULTS } from './defaults.js';
import { endpointId, findByRoute } from './references.js';

/** The fields every endpoint kind shares (EndpointBase of the contract). */
export type EndpointBase = Omit<Pick<SqlEndpoint, keyof EndpointModel>, 'kind'>;

export function responseTransforms(c: ResponseTransformsConfig | undefined): ResponseTransforms {
  return {
    remove: [...(c?.Remove ?? DEFAULTS.responseTransforms.Remove)],
    rename: { ...(c?.Rename ?? DEFAULTS.responseTransforms.Rename) },
    mask: [...(c?.Mask ?? DEFAULTS.responseTransforms.Mask)],
  };
}

/** Endpoint id of a validated reference; a dangling one is a bug upstream (validation). */
export function resolveReference(ctx: EntityContext, contexts: readonly EntityContext[], ref: string, kind: EndpointKind): string {
  const target = findByRoute(contexts, ref, [kind])[0];
  if (!target) throw new Error(`${ctx.parsed.source.file}: reference '${ref}' to a ${kind} endpoint was not validated`);
  return endpointId(target);
}
