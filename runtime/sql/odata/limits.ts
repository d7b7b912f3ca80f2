/** Limits against hostile input. Documented in docs/odata.md; change both together. */
export const ODATA_LIMITS = {
  /** Maximum `$top` (spec). */
  maxTop: 1000,
  /** Page size when `$top` is absent. */
  defaultTop: 100,
  /** Largest accepted `$skip` (fits a 32-bit signed int on every database). */
  maxSkip: 2_147_483_647,
  /** Characters per option value (`$filter`, `$orderby`, ...). */
  maxOptionLength: 4000,
  /** Characters of one string literal. */
  maxLiteralLength: 1000,
  /** Nesting of parentheses, `not` and function calls. */
  maxDepth: 32,
  /** Items of one `in (...)` list. */
  maxInItems: 200,
  /** Fields in `$orderby`. */
  maxOrderbyItems: 20,
  /** Relationships in `$expand`. */
  maxExpandItems: 10,
} as const;
