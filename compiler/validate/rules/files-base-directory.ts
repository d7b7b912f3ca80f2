/**
 * Files BaseDirectory stays inside the storage root: relative, no `..` after normalization; it and
 * StorageDirectory hold no NUL character.
 */
import type { FilesConfig } from '../../model/config.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';
import { containedPath } from '../../../runtime/contract/contained-path.js';

export const filesBaseDirectoryRule: EntityRule = {
  name: 'files-base-directory',
  scope: 'entity',
  codes: ['base-directory-escape'],
  kinds: ['files'],
  check(ctx) {
    const config = ctx.config as unknown as FilesConfig;
    // a NUL passed the build and made every request of the endpoint a 500 (no file system path holds one)
    const withNul = (['BaseDirectory', 'StorageDirectory'] as const).filter((field) => config[field]?.includes('\0'));
    if (withNul.length > 0) {
      return withNul.map((field) =>
        error(ctx, 'base-directory-escape', `/${field}`, `${field} contains a NUL character (\\u0000), which no file system path can hold`, {
          hint: 'Remove the \\u0000 escape from the path.',
        }),
      );
    }
    const dir = config.BaseDirectory;
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
