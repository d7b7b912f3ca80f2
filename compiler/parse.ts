/**
 * Stage 2: parse entity.json text into a JSON value while keeping a syntax tree, so every later
 * diagnostic can name file:line:column for a JSON pointer. Strict JSON: no comments, no
 * trailing commas (jsonc-parser with those options off).
 */
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Diagnostic } from './diagnostics.js';
import { configText, textProblemDiagnostic } from './json-text.js';
import type { DiscoveredEntity, ParsedEntity, SourcePosition } from './stages.js';

export interface ParseResult {
  readonly entity: ParsedEntity;
  readonly diagnostics: Diagnostic[];
}

const ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: 'Invalid symbol',
  InvalidNumberFormat: 'Invalid number format',
  PropertyNameExpected: 'Property name expected (property names must be double-quoted strings)',
  ValueExpected: 'Value expected',
  ColonExpected: "':' expected",
  CommaExpected: "',' expected",
  CloseBraceExpected: "'}' expected",
  CloseBracketExpected: "']' expected",
  EndOfFileExpected: 'End of file expected',
  InvalidCommentToken: 'Comments are not allowed in JSON',
  UnexpectedEndOfComment: 'Unexpected end of comment',
  UnexpectedEndOfString: 'Unterminated string',
  UnexpectedEndOfNumber: 'Unexpected end of number',
  InvalidUnicode: 'Invalid unicode escape',
  InvalidEscapeCharacter: 'Invalid escape character',
  InvalidCharacter: 'Invalid character in string',
};

/** Line index for offset -> 1-based line/column. */
export function lineIndex(text: string): (offset: number) => SourcePosition {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] as number) + 1 };
  };
}

/** RFC 6901 pointer -> path segments (numbers for array indexes are resolved against the tree). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return pointer === '/' ? [''] : [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function nodeAt(tree: Node | undefined, segments: string[]): Node | undefined {
  if (!tree) return undefined;
  let rest = segments;
  while (true) {
    const pathArgs = [] as (string | number)[];
    let node: Node | undefined = tree;
    for (const seg of rest) {
      if (!node) break;
      const key: string | number = node.type === 'array' && /^\d+$/.test(seg) ? Number(seg) : seg;
      pathArgs.push(key);
      node = findNodeAtLocation(tree, pathArgs);
    }
    if (node) return node;
    if (rest.length === 0) return tree;
    rest = rest.slice(0, -1);
  }
}

/**
 * The value of valid JSON text as getNodeValue gives it (objects without a prototype), by the
 * native parser: most entities are valid, and their syntax tree is then built only when a
 * diagnostic asks where a pointer is. Undefined when the text is not valid JSON (jsonc-parser
 * then finds the error and its position).
 */
function parseValid(text: string): { value: unknown } | undefined {
  try {
    return { value: withoutPrototypes(JSON.parse(text)) };
  } catch {
    return undefined;
  }
}

function withoutPrototypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPrototypes);
  if (value === null || typeof value !== 'object') return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) out[key] = withoutPrototypes((value as Record<string, unknown>)[key]);
  return out;
}

const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/**
 * `raw` is the file's bytes (then they must be UTF-8) or its text. Text that is not UTF-8 or nests
 * deeper than MAX_JSON_DEPTH is one `json-syntax` diagnostic and is not parsed (json-text.ts).
 */
export function parseEntity(source: DiscoveredEntity, raw: string | Uint8Array): ParseResult {
  const { text, problem } = configText(raw);
  let index: ((offset: number) => SourcePosition) | undefined;
  const position = (offset: number): SourcePosition => (index ??= lineIndex(text))(offset);
  if (problem) {
    const at = position(problem.offset);
    return { entity: { source, text, value: undefined, locate: () => at, locateKey: () => at }, diagnostics: [textProblemDiagnostic(source.file, problem, at)] };
  }
  const errors: ParseError[] = [];
  const valid = parseValid(text);
  let tree = valid === undefined ? parseTree(text, errors, PARSE_OPTIONS) : undefined;
  const treeOf = (): Node | undefined => (tree ??= parseTree(text, [], PARSE_OPTIONS));
  const diagnostics: Diagnostic[] = errors.slice(0, 1).map((e) => {
    const code = printParseErrorCode(e.error);
    const at = position(e.offset);
    return {
      severity: 'error',
      code: 'json-syntax',
      file: source.file,
      line: at.line,
      column: at.column,
      pointer: '',
      message: `Invalid JSON: ${ERROR_TEXT[code] ?? code} at line ${at.line}, column ${at.column}`,
      hint: 'entity.json must be strict JSON: double-quoted names, no comments, no trailing commas.',
    } satisfies Diagnostic;
  });
  const value = valid !== undefined ? valid.value : errors.length === 0 && tree ? (getNodeValue(tree) as unknown) : undefined;
  if (errors.length === 0 && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    diagnostics.push({
      severity: 'error',
      code: 'json-syntax',
      file: source.file,
      line: 1,
      column: 1,
      pointer: '',
      message: 'entity.json must contain a JSON object',
    });
  }
  const entity: ParsedEntity = {
    source,
    text,
    value: diagnostics.length === 0 ? value : undefined,
    locate(pointer) {
      const node = nodeAt(treeOf(), pointerSegments(pointer));
      return node ? position(node.offset) : { line: 1, column: 1 };
    },
    locateKey(pointer) {
      const node = nodeAt(treeOf(), pointerSegments(pointer));
      const keyNode = node?.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
      return position((keyNode ?? node)?.offset ?? 0);
    },
  };
  return { entity, diagnostics };
}
