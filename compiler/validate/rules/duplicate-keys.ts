/**
 * A key written twice in one JSON object of an entity.json: JSON.parse (and jsonc-parser's value)
 * keeps the last one silently, so the first setting would never take effect. Reported at the
 * second key's line and column; runs on schema-invalid entities too (the duplicate may be why).
 */
import { parseTree, type Node } from 'jsonc-parser';
import type { Diagnostic } from '../../diagnostics.js';
import { lineIndex } from '../../parse.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

interface Duplicate {
  readonly ptr: string;
  readonly key: string;
  readonly offset: number;
  readonly firstOffset: number;
}

/** Every repeated key in the JSON text, in text order, with the pointer of the repeated member. */
export function duplicateKeys(text: string): Duplicate[] {
  const found: Duplicate[] = [];
  const walk = (node: Node | undefined, ptr: string): void => {
    if (!node) return;
    if (node.type === 'array') node.children?.forEach((child, i) => walk(child, pointer(ptr, i)));
    if (node.type !== 'object') return;
    const seen = new Map<string, number>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (!keyNode || typeof keyNode.value !== 'string') continue;
      const key = keyNode.value;
      const first = seen.get(key);
      if (first !== undefined) found.push({ ptr: pointer(ptr, key), key, offset: keyNode.offset, firstOffset: first });
      else seen.set(key, keyNode.offset);
      walk(valueNode, pointer(ptr, key));
    }
  };
  walk(parseTree(text, [], { disallowComments: true, allowTrailingComma: false }), '');
  return found;
}

export const duplicateKeysRule: EntityRule = {
  name: 'duplicate-keys',
  scope: 'entity',
  codes: ['duplicate-key'],
  evenIfSchemaInvalid: true,
  check(ctx) {
    const text = ctx.parsed.text;
    const position = lineIndex(text);
    return duplicateKeys(text).map((d): Diagnostic => {
      const first = position(d.firstOffset);
      const at = position(d.offset);
      return {
        ...error(ctx, 'duplicate-key', d.ptr, `Key "${d.key}" is written twice in the same object (first at line ${first.line}); JSON keeps only the last one`, {
          hint: 'Remove one of the two; merge their settings into a single key.',
        }),
        line: at.line,
        column: at.column,
      };
    });
  },
};
