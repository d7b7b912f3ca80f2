/**
 * Text from a configuration or content file on its way to a terminal or into a generated source
 * comment: control characters (an ESC sequence retitling or clearing a CI log), format characters
 * (the bidirectional overrides of "Trojan Source"), line and paragraph separators (which end a `//`
 * comment in JavaScript), unassigned and private-use code points, lone surrogates and U+FFFD are
 * written as escapes, so the text stays one inert line.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\uFFFD]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\n`, `\u0000`, `\u202e`…: a message never carries raw bytes to a terminal. */
export function escapeUnprintable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => NAMED[c] ?? `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}
