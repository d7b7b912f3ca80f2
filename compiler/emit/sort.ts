/** The one order every emitter iterates endpoints in, whatever order the caller passed. */
import type { EndpointModel } from '../../runtime/contract/index.js';
import { compareCodeUnits } from './canonical-json.js';

/** Sorted copy by `id`; throws on duplicate ids (two endpoints would overwrite each other's files). */
export function sortById<T extends EndpointModel>(models: readonly T[]): T[] {
  const sorted = [...models].sort((a, b) => compareCodeUnits(a.id, b.id));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.id === sorted[i - 1]?.id) throw new Error(`emit: duplicate endpoint id '${sorted[i]?.id}'`);
  }
  return sorted;
}
