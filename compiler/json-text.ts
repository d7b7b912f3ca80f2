/**
 * The text of a JSON configuration file before it is parsed (entity.json, the settings and sync
 * files): the bytes must be UTF-8 (RFC 8259 §8.1), and the nesting is bounded, because the parser
 * and every later walk over the value recurse: a file of 100,000 `[` would otherwise end the
 * build with "Maximum call stack size exceeded" instead of naming the file. Each problem is a
 * message with the offset (in the decoded text) where it is.
 */
import { jsonTooDeepAt } from '../runtime/contract/json-depth.js';
import type { Diagnostic } from './diagnostics.js';

/** Deepest nesting of objects and arrays a configuration file may have (a real entity.json needs about 6). */
export const MAX_JSON_DEPTH = 100;

export interface TextProblem {
  readonly message: string;
  readonly hint?: string;
  /** Offset in `text` (the decoded part before the problem) where it is. */
  readonly offset: number;
}

export type DecodedText = { readonly text: string; readonly problem?: undefined } | { readonly text: string; readonly problem: TextProblem };

const SAVE_AS_UTF8 = 'JSON files are UTF-8: save the file with the UTF-8 encoding.';

/** Length of the valid UTF-8 prefix of `bytes` (bytes.length when all of it is valid). */
function validUtf8Length(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0 || i + need >= bytes.length) return i;
    const second = bytes[i + 1] as number;
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (second < low || second > high) return i;
    for (let k = 2; k <= need; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return i;
}

/**
 * The UTF-8 text of a file's bytes (a leading byte order mark dropped), or where it stops being
 * UTF-8: a UTF-16 file (by its byte order mark, or the zero bytes of ASCII in UTF-16) is named
 * as such, any other invalid byte with its value.
 */
export function decodeConfigBytes(bytes: Uint8Array): DecodedText {
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes.length >= 2 && (bytes[0] === 0) !== (bytes[1] === 0));
  if (utf16) return { text: '', problem: { offset: 0, message: 'the file is UTF-16, not UTF-8', hint: SAVE_AS_UTF8 } };
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  const valid = validUtf8Length(body);
  const text = Buffer.from(body.buffer, body.byteOffset, valid).toString('utf8');
  if (valid === body.length) return { text };
  const byte = (body[valid] as number).toString(16).toUpperCase().padStart(2, '0');
  return { text, problem: { offset: text.length, message: `byte 0x${byte} is not valid UTF-8`, hint: SAVE_AS_UTF8 } };
}

/** Offset of the first `{` or `[` nested deeper than `limit` (the runtime's scan of request bodies). */
export function tooDeepAt(text: string, limit = MAX_JSON_DEPTH): number | undefined {
  return jsonTooDeepAt(text, limit);
}

/** The depth problem of `text`, if any. */
export function nestingProblem(text: string): TextProblem | undefined {
  const offset = tooDeepAt(text);
  return offset === undefined ? undefined : { offset, message: `objects and arrays are nested deeper than ${MAX_JSON_DEPTH} levels` };
}

/**
 * The text of a configuration file given as its bytes (then they must be UTF-8) or as text (a
 * leading byte order mark dropped), with its first problem before parsing (encoding, nesting).
 */
export function configText(raw: string | Uint8Array): DecodedText {
  const decoded = typeof raw === 'string' ? { text: raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw } : decodeConfigBytes(raw);
  const problem = decoded.problem ?? nestingProblem(decoded.text);
  return problem ? { text: decoded.text, problem } : { text: decoded.text };
}

/** The `json-syntax` diagnostic of a text problem found at `at` (line and column of its offset). */
export function textProblemDiagnostic(file: string, problem: TextProblem, at: { readonly line: number; readonly column: number }): Diagnostic {
  const message = `Invalid JSON: ${problem.message} at line ${at.line}, column ${at.column}`;
  return { severity: 'error', code: 'json-syntax', file, line: at.line, column: at.column, pointer: '', message, ...(problem.hint ? { hint: problem.hint } : {}) };
}
