/** Files BaseDirectory stays inside the storage root: relative, no `..` after normalization. */
import type { FilesConfig } from '../../model/config.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';
import { containedPath } from '../../model/contained-path.js';

export const filesBaseDirectoryRule: EntityRule = {
  name: 'files-base-directory',
  scope: 'entity',
  codes: ['base-directory-escape'],
  kinds: ['files'],
  check(ctx) {
    const dir = (ctx.config as unknown as FilesConfig).BaseDirectory;
    if (dir === undefined) return [];
    const contained = containedPath(dir);
    if (contained !== null && contained !== '.') return [];
    return [
      error(ctx, 'base-directory-escape', '/BaseDirectory', `BaseDirectory '${dir}' must be a relative folder inside the storage root`, {
        hint: "Use a relative path without '..', e.g. \"{env}/invoices\".",
      }),
    ];
  },
};
