/**
 * In-memory `$orderby` over plain rows, matching the SQL path on PostgreSQL: numbers by value,
 * strings by code unit ("C" collation), false before true, NULLs last ascending and first
 * descending; ties keep the input order (the SQL path's primary-key tie-breaker when rows come in
 * key order). Used by Static endpoints.
 */
import type { OrderItem } from './ast.js';
import type { Row } from './evaluate.js';

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function orderRows<R extends Row>(rows: readonly R[], order: readonly OrderItem[]): R[] {
  if (order.length === 0) return [...rows];
  const indexed = rows.map((row, index) => ({ row, index }));
  indexed.sort((left, right) => {
    for (const item of order) {
      const a = left.row[item.member.column] ?? null;
      const b = right.row[item.member.column] ?? null;
      let result: number;
      if (a === null || b === null) result = a === b ? 0 : a === null ? 1 : -1;
      else result = compareValues(a, b);
      if (item.direction === 'desc') result = -result;
      if (result !== 0) return result;
    }
    return left.index - right.index;
  });
  return indexed.map((entry) => entry.row);
}
