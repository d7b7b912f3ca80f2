/**
 * Where a parsed member, literal or function call stood in its option value (1-based, as in every
 * positioned message), for the errors found after parsing (type-check.ts, apply-options.ts). Kept
 * beside the AST, not in it: the nodes stay plain values that plans, caches and tests compare.
 */
const POSITIONS = new WeakMap<object, number>();

/** Records the node's position and returns the node. */
export function placed<T extends object>(node: T, position: number): T {
  POSITIONS.set(node, position);
  return node;
}

/** ` at position <n>` for a node the parser placed, '' for one it did not (an implied `eq true`). */
export function atPositionOf(node: object): string {
  const position = POSITIONS.get(node);
  return position === undefined ? '' : ` at position ${position}`;
}
