/**
 * How deep a JSON text nests, judged before anything parses or recurses over it: request bodies
 * (runtime/api/json-body.ts, the console's parser) and configuration files (compiler/json-text.ts)
 * refuse a text nested beyond their limit, because JSON.parse and every later walk recurse.
 */

/**
 * Offset of the first `{` or `[` (outside strings) nested deeper than `limit`, if any: one pass
 * without recursion, valid JSON or not, stopping there.
 */
export function jsonTooDeepAt(text: string, limit: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return i;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return undefined;
}
