/** Builds a Diagnostic located at a JSON pointer of an entity. */
import type { Diagnostic, Severity } from '../diagnostics.js';
import type { EntityContext } from '../stages.js';

export interface ReportOptions {
  readonly hint?: string | undefined;
  /** Locate the property name instead of its value (unknown keys, misplaced properties). */
  readonly atKey?: boolean;
  /** Report on the file as a whole (line 0): for facts about the file's location. */
  readonly wholeFile?: boolean;
}

export function report(
  ctx: EntityContext,
  severity: Severity,
  code: string,
  ptr: string,
  message: string,
  options: ReportOptions = {},
): Diagnostic {
  const at = options.wholeFile
    ? { line: 0, column: 0 }
    : options.atKey
      ? ctx.parsed.locateKey(ptr)
      : ctx.parsed.locate(ptr);
  return {
    severity,
    code,
    file: ctx.parsed.source.file,
    line: at.line,
    column: at.column,
    pointer: ptr,
    message,
    ...(options.hint ? { hint: options.hint } : {}),
  };
}

export const error = (ctx: EntityContext, code: string, ptr: string, message: string, options?: ReportOptions) =>
  report(ctx, 'error', code, ptr, message, options);

export const warning = (ctx: EntityContext, code: string, ptr: string, message: string, options?: ReportOptions) =>
  report(ctx, 'warning', code, ptr, message, options);
