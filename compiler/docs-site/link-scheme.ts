/**
 * Links the site writes from `config.json` and front matter (Markdown links are markdown-it's:
 * its validateLink refuses the same schemes): a URL whose scheme runs script or opens the reader's
 * files, `javascript:`, `vbscript:`, `data:`, `file:`, is refused with `docs-unsafe-link`. The URL
 * is read as a browser reads it (WHATWG URL parsing): tabs and newlines anywhere are dropped,
 * leading spaces and control characters trimmed, the scheme compared in any case.
 */
import type { Diagnostic } from '../diagnostics.js';

const REFUSED = new Set(['javascript', 'vbscript', 'data', 'file']);

/** The refused scheme of `url` (lower case), or null when the link may be written. */
export function refusedScheme(url: string): string | null {
  const read = url.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+/, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(read)?.[1]?.toLowerCase() ?? null;
  return scheme !== null && REFUSED.has(scheme) ? scheme : null;
}

/** `url` when it may be written; else null, with a `docs-unsafe-link` error naming file and field. */
export function checkedLink(url: string, file: string, pointer: string, line: number, diagnostics: Diagnostic[]): string | null {
  const scheme = refusedScheme(url);
  if (scheme === null) return url;
  diagnostics.push({
    severity: 'error',
    code: 'docs-unsafe-link',
    file,
    line,
    column: line > 0 ? 1 : 0,
    pointer,
    message: `a ${scheme}: link is refused: it would run script or open a local file in the reader's browser`,
    hint: 'Link an http(s) URL, a mailto: or tel: address, or a page path.',
  });
  return null;
}
