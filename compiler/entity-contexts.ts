/**
 * Stages 2 and 3 over many entities: parse each text (all read concurrently), identify each parsed
 * object. A file that cannot be read is a `file-unreadable` diagnostic (read-config-file.ts).
 */
import type { Diagnostic } from './diagnostics.js';
import { identify } from './identify.js';
import { mapLimited } from './map-limited.js';
import { parseEntity } from './parse.js';
import { unreadableFile } from './read-config-file.js';
import type { DiscoveredEntity, EntityContext } from './stages.js';

export async function parseAndIdentify(
  sources: readonly DiscoveredEntity[],
  textOf: (source: DiscoveredEntity) => Promise<string | Uint8Array>,
): Promise<{ contexts: EntityContext[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const contexts: EntityContext[] = [];
  const texts = await mapLimited(sources, (source) => textOf(source).catch((error: unknown) => unreadableFile(source.file, error)));
  sources.forEach((source, i) => {
    const text = texts[i] as string | Uint8Array | Diagnostic;
    if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
      diagnostics.push(text);
      return;
    }
    const parsed = parseEntity(source, text);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.entity.value === undefined) return;
    const identified = identify(parsed.entity);
    diagnostics.push(...identified.diagnostics);
    if (identified.context) contexts.push(identified.context);
  });
  return { contexts, diagnostics };
}
