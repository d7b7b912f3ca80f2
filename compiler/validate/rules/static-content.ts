/**
 * Static ContentFile lies inside the endpoint folder and exists there (also after following
 * symbolic links); JSON, XML and CSV content
 * parses into records (the runtime's own parser, runtime/contract/static-content.ts), reported at
 * the content file's line and column when it does not; EnableFiltering is only meaningful for
 * those three formats (an error: the OpenAPI document would advertise $filter). (Reads the content file.)
 */
import { readFileSync, statSync } from 'node:fs';
import { parseStaticContent, staticFormatOf } from '../../../runtime/contract/static-content.js';
import path from 'node:path';
import type { Diagnostic } from '../../diagnostics.js';
import type { StaticConfig } from '../../model/config.js';
import { isFilterable, staticContentType } from '../../model/content-type.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';
import { containedPath, resolvesInside } from '../../../runtime/contract/contained-path.js';

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
  codes: ['content-file-escape', 'content-file-missing', 'static-content-malformed', 'static-filtering-unsupported'],
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
    } else if (!resolvesInside(path.dirname(ctx.parsed.source.absolutePath), relative)) {
      out.push(
        error(ctx, 'content-file-escape', '/ContentFile', `ContentFile '${config.ContentFile}' is a symbolic link to a file outside the endpoint folder`, {
          hint: 'The gateway would serve that file (a secret of the machine or of environments/, say) to every caller: copy the content into the endpoint folder instead.',
        }),
      );
    }
    const contentType = staticContentType(config.ContentFile, config.ContentType);
    if (relative !== null && out.length === 0) {
      const malformed = checkContent(path.join(path.dirname(ctx.parsed.source.absolutePath), relative), contentType);
      if (malformed) {
        const file = path.posix.join(path.posix.dirname(ctx.parsed.source.file), relative);
        out.push({
          severity: 'error',
          code: 'static-content-malformed',
          file,
          line: malformed.line ?? 0,
          column: malformed.column ?? (malformed.line === null ? 0 : 1),
          pointer: '',
          message: `${config.ContentFile}: ${malformed.message}`,
          hint: malformed.message.startsWith('the file looks binary')
            ? `${contentType} content is parsed into records: set "ContentType" to the file's real type (e.g. "image/png") to serve it as it is.`
            : 'Static content must parse: JSON an array of objects (or an object holding one), XML a root with a repeating element, CSV a header line and rows.',
        });
      }
    }
    if (config.EnableFiltering === true && !isFilterable(contentType)) {
      out.push(
        error(ctx, 'static-filtering-unsupported', '/EnableFiltering', `EnableFiltering has no effect on ${contentType} content`, {
          hint: 'OData filtering applies to JSON, XML and CSV content only; remove EnableFiltering (the OpenAPI document would advertise $filter).',
        }),
      );
    }
    return out;
  },
};

function checkContent(file: string, contentType: string): { message: string; line: number | null; column: number | null } | null {
  const format = staticFormatOf(contentType);
  if (format === null) return null;
  const result = parseStaticContent(readFileSync(file, 'utf8'), format);
  return result.ok ? null : result.error;
}
