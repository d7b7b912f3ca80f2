/**
 * Keys written twice in one JSON object of a configuration file (entity.json, the settings and sync
 * files): JSON.parse (and jsonc-parser's value) keeps the last one without a word, so the first
 * setting would never take effect. Each is a `duplicate-key` error at the second key.
 */
import type { Node } from 'jsonc-parser';
import type { Diagnostic } from './diagnostics.js';
import type { SourcePosition } from './stages.js';
import { pointer } from './validate/pointer.js';

export interface DuplicateKey {
  /** Pointer of the repeated member. */
  readonly ptr: string;
  readonly key: string;
  /** Offset of the second key. */
  readonly offset: number;
  /** Offset of the first key of that name in the same object. */
  readonly firstOffset: number;
}

export const DUPLICATE_KEY_HINT = 'Remove one of the two; merge their settings into a single key.';

export const duplicateKeyMessage = (key: string, firstLine: number): string =>
  `Key "${key}" is written twice in the same object (first at line ${firstLine}); JSON keeps only the last one`;

/** Every repeated key of a syntax tree (jsonc-parser's parseTree), in text order. */
export function duplicateKeys(tree: Node | undefined): DuplicateKey[] {
  const found: DuplicateKey[] = [];
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
  walk(tree, '');
  return found;
}

/** The `duplicate-key` diagnostics of `file`'s syntax tree; `at` turns an offset into line and column. */
export function duplicateKeyDiagnostics(file: string, tree: Node | undefined, at: (offset: number) => SourcePosition): Diagnostic[] {
  return duplicateKeys(tree).map((d) => {
    const { line, column } = at(d.offset);
    return { severity: 'error', code: 'duplicate-key', file, line, column, pointer: d.ptr, message: duplicateKeyMessage(d.key, at(d.firstOffset).line), hint: DUPLICATE_KEY_HINT };
  });
}
