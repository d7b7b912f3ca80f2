/**
 * What a build of a root also does besides the endpoints' files: check the docs of docs/ (nothing
 * of them is written) and emit the web console's and the sync dashboard's assets (generated/ui/,
 * generated/sync-ui/); and which generated/ paths it owns (prunes). It owns generated/docs/ always:
 * older builds wrote precompiled pages there, and a build removes them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface BuildScopeOptions {
  readonly root: string;
  readonly docs?: boolean;
  readonly consoleUi?: boolean;
}

export function buildScope(options: BuildScopeOptions): { withDocs: boolean; withUi: boolean; owns: (relativePath: string) => boolean } {
  const withDocs = options.docs ?? existsSync(path.join(options.root, 'docs'));
  const withUi = options.consoleUi !== false;
  return {
    withDocs,
    withUi,
    owns: (p: string) => withUi || !(p.startsWith('ui/') || p.startsWith('sync-ui/')),
  };
}
