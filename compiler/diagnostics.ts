/**
 * Collected configuration diagnostics. Every stage returns these instead of throwing, so one
 * run reports every problem at once; any error means nothing is written (see pipeline.ts).
 */
import { escapeUnprintable } from '../runtime/contract/unprintable.js';
import { compareCodeUnits } from './emit/canonical-json.js';

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  readonly severity: Severity;
  /** Stable rule code, e.g. `namespace-segment`; documented in docs/diagnostics.md. */
  readonly code: string;
  /** Path relative to the project root, posix separators. */
  readonly file: string;
  /** 1-based; 0 when the diagnostic is about the file as a whole. */
  readonly line: number;
  readonly column: number;
  /** JSON pointer into the file ('' for the whole document). */
  readonly pointer: string;
  readonly message: string;
  readonly hint?: string;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * `endpoints/SQL/X/entity.json:3:5: error namespace-segment at /Namespace: message (hint: ...)`.
 * Folder names, JSON keys and values reach the text as written: their control and format
 * characters are escaped (runtime/contract/unprintable.ts), so a name holding an ESC sequence or a
 * newline cannot act on the terminal or forge a diagnostic line in a CI log.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
  const at = d.pointer ? ` at ${d.pointer}` : '';
  const hint = d.hint ? `\n    hint: ${escapeUnprintable(d.hint)}` : '';
  return `${escapeUnprintable(`${where}: ${d.severity} ${d.code}${at}: ${d.message}`)}${hint}`;
}

/**
 * Deterministic order: file, line, column, code; names by UTF-16 code units as discover orders the
 * files, never by the machine's locale (with LANG=da_DK, localeCompare put `B/` before `Aa/`).
 */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      compareCodeUnits(a.file, b.file) || a.line - b.line || a.column - b.column || compareCodeUnits(a.code, b.code),
  );
}
