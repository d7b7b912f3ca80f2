/** Whether a build of a root also precompiles docs/, and which generated/ paths it owns (prunes). */
import { existsSync } from 'node:fs';
import path from 'node:path';

export function buildScope(options: { readonly root: string; readonly docs?: boolean }): { withDocs: boolean; owns: (relativePath: string) => boolean } {
  const withDocs = options.docs ?? existsSync(path.join(options.root, 'docs'));
  return { withDocs, owns: withDocs ? () => true : (p: string) => !p.startsWith('docs/') };
}
