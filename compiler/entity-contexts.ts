/** Stages 2 and 3 over many entities: parse each text, identify each parsed object. */
import type { Diagnostic } from './diagnostics.js';
import { identify } from './identify.js';
import { parseEntity } from './parse.js';
import type { DiscoveredEntity, EntityContext } from './stages.js';

export async function parseAndIdentify(
  sources: readonly DiscoveredEntity[],
  textOf: (source: DiscoveredEntity) => Promise<string>,
): Promise<{ contexts: EntityContext[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const contexts: EntityContext[] = [];
  for (const source of sources) {
    const parsed = parseEntity(source, await textOf(source));
    diagnostics.push(...parsed.diagnostics);
    if (parsed.entity.value === undefined) continue;
    const identified = identify(parsed.entity);
    diagnostics.push(...identified.diagnostics);
    if (identified.context) contexts.push(identified.context);
  }
  return { contexts, diagnostics };
}
