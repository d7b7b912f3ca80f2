/**
 * Where a JSON.parse failure is, as an offset into the text: shared by request bodies
 * (runtime/api/json-body.ts) and Static content (static-content.ts, also run by the compiler).
 * V8 gives a position, or names the unexpected character without one (`Unexpected token 'o',
 * "notjson" is not valid JSON`); jsonc-parser in strict mode then finds the bad token, whose start
 * may come before that character (`notjson` starts at 0, the `o` V8 names is at 1), so the offset
 * is that of the named character from the token's start on.
 */
import { parse as parseTolerant } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';

export function jsonErrorOffset(text: string, message: string): number | null {
  const fromV8 = /at position (\d+)/.exec(message);
  if (fromV8) return Number(fromV8[1]);
  const errors: ParseError[] = [];
  parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const offset = errors[0]?.offset;
  if (offset === undefined) return null;
  const named = /^Unexpected token '(.)'/u.exec(message)?.[1];
  const at = named === undefined ? -1 : text.indexOf(named, offset);
  return at >= 0 ? at : offset;
}

/**
 * V8's JSON.parse message without its excerpt of the text: `, "notjson" is not valid JSON`, also
 * when shortened (`"notjson-and"... is not valid JSON`, `..."d":4, x "e"... is not valid JSON`).
 * The excerpt is the input quoted back (binary bytes included); the position says where.
 */
export function withoutJsonExcerpt(message: string): string {
  return message.replace(/,\s*(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '');
}

/** 1-based line and column of an offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}
