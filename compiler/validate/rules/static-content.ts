/**
 * Static ContentFile lies inside the endpoint folder and exists there; EnableFiltering is
 * only meaningful for JSON and XML content. (Reads the file system: existence only.)
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../../diagnostics.js';
import type { StaticConfig } from '../../model/config.js';
import { isFilterable, staticContentType } from '../../model/content-type.js';
import { error, warning } from '../report.js';
import type { EntityRule } from '../rule.js';
import { containedPath } from '../../model/contained-path.js';

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export const staticContentRule: EntityRule = {
  name: 'static-content',
  scope: 'entity',
  codes: ['content-file-escape', 'content-file-missing', 'static-filtering-unsupported'],
  kinds: ['static'],
  check(ctx) {
    const config = ctx.config as unknown as StaticConfig;
    const out: Diagnostic[] = [];
    const relative = containedPath(config.ContentFile);
    if (relative === null || relative === '.' || relative === 'entity.json') {
      out.push(
        error(ctx, 'content-file-escape', '/ContentFile', `ContentFile '${config.ContentFile}' must name a file inside the endpoint folder`, {
          hint: 'Put the content file next to entity.json and give its name, e.g. "countries.json".',
        }),
      );
    } else if (!isFile(path.join(path.dirname(ctx.parsed.source.absolutePath), relative))) {
      out.push(
        error(ctx, 'content-file-missing', '/ContentFile', `ContentFile '${config.ContentFile}' does not exist next to entity.json`, {
          hint: `Expected ${path.posix.join(path.posix.dirname(ctx.parsed.source.file), relative)}.`,
        }),
      );
    }
    const contentType = staticContentType(config.ContentFile, config.ContentType);
    if (config.EnableFiltering === true && !isFilterable(contentType)) {
      out.push(
        warning(ctx, 'static-filtering-unsupported', '/EnableFiltering', `EnableFiltering has no effect on ${contentType} content`, {
          hint: 'OData filtering applies to JSON and XML content only.',
        }),
      );
    }
    return out;
  },
};
