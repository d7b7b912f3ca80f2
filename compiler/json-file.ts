/**
 * A configuration JSON file other than entity.json (environments/**\/*.json) parsed with its
 * syntax tree, so a diagnostic at a JSON pointer names file:line:column. Strict JSON (no
 * comments, no trailing commas); a syntax error is one `json-syntax` diagnostic, a key written twice
 * in one object a `duplicate-key` diagnostic each (`duplicates`, the callers report them with theirs).
 */
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Diagnostic, Severity } from './diagnostics.js';
import { duplicateKeyDiagnostics } from './json-duplicate-keys.js';
import { configText, textProblemDiagnostic } from './json-text.js';
import { lineIndex, pointerSegments } from './parse.js';

export interface LocatedJson {
  readonly value: unknown;
  /** The `duplicate-key` errors of the file (the value keeps the last of each repeated key). */
  readonly duplicates: readonly Diagnostic[];
  /** Diagnostic at `pointer` (the nearest existing node); `atKey` points at the property name. */
  diagnostic(severity: Severity, code: string, pointer: string, message: string, options?: { atKey?: boolean; hint?: string }): Diagnostic;
}

function nodeAt(tree: Node | undefined, ptr: string): Node | undefined {
  let segments = pointerSegments(ptr);
  while (tree) {
    const node = findNodeAtLocation(tree, segments.map((s) => (/^\d+$/.test(s) ? Number(s) : s)));
    if (node || segments.length === 0) return node ?? tree;
    segments = segments.slice(0, -1);
  }
  return undefined;
}

/** `raw`: the file's bytes (then they must be UTF-8) or its text; nesting deeper than MAX_JSON_DEPTH is a syntax error. */
export function parseJsonFile(file: string, raw: string | Uint8Array): LocatedJson | Diagnostic {
  const { text, problem } = configText(raw);
  const at = lineIndex(text);
  if (problem) return textProblemDiagnostic(file, problem, at(problem.offset));
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0 || !tree) {
    const first = errors[0];
    const pos = at(first?.offset ?? 0);
    return { severity: 'error', code: 'json-syntax', file, line: pos.line, column: pos.column, pointer: '', message: `Invalid JSON: ${first ? printParseErrorCode(first.error) : 'empty file'} at line ${pos.line}, column ${pos.column}` };
  }
  return {
    value: JSON.parse(text) as unknown,
    duplicates: duplicateKeyDiagnostics(file, tree, at),
    diagnostic(severity, code, pointer, message, options = {}) {
      const node = nodeAt(tree, pointer);
      const target = options.atKey && node?.parent?.type === 'property' ? node.parent.children?.[0] : node;
      const pos = at(target?.offset ?? 0);
      return { severity, code, file, line: pos.line, column: pos.column, pointer, message, ...(options.hint ? { hint: options.hint } : {}) };
    },
  };
}

export const isJsonSyntaxError = (parsed: LocatedJson | Diagnostic): parsed is Diagnostic => 'code' in parsed;
