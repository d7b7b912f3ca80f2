/** Stages 2 and 3 over many entities: parse each text (all read concurrently), identify each parsed object. */
import type { Diagnostic } from './diagnostics.js';
import { identify } from './identify.js';
import { mapLimited } from './map-limited.js';
import { parseEntity } from './parse.js';
import type { DiscoveredEntity, EntityContext } from './stages.js';

export async function parseAndIdentify(
  sources: readonly DiscoveredEntity[],
  textOf: (source: DiscoveredEntity) => Promise<string>,
): Promise<{ contexts: EntityContext[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const contexts: EntityContext[] = [];
  const texts = await mapLimited(sources, textOf);
  sources.forEach((source, i) => {
    const parsed = parseEntity(source, texts[i] as string);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.entity.value === undefined) return;
    const identified = identify(parsed.entity);
    diagnostics.push(...identified.diagnostics);
    if (identified.context) contexts.push(identified.context);
  });
  return { contexts, diagnostics };
}
