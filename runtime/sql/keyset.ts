/**
 * Keyset paging (`"Paging": "Keyset"` in entity.json): the next page starts after the last row's
 * ordering values (the `$orderby` columns, the key appended as tie-breaker) instead of skipping
 * rows, so every page costs the same however deep. The read plan gets a KeysetCondition,
 * compiled per dialect (compile/keyset-sql.ts); nextLink carries `$skiptoken` (keyset-token.ts)
 * in place of `$skip`.
 */
import type { Row } from './drivers/driver.js';
import type { KeysetColumn, ReadPlan, TypedValue } from './plan.js';
import type { KeysetValue } from './keyset-token.js';


/** Output name of the n-th ordering value added to a keyset read's SELECT (stripped from the rows). */
export function keysetField(n: number): string {
  return `__wharf_k${n}`;
}

/** A token value as a parameter: whole numbers int/bigint, other numbers decimal text. */
export function keysetParam(value: KeysetValue): TypedValue {
  if (value === null) return { type: 'string', value: null };
  if (typeof value === 'boolean') return { type: 'boolean', value };
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return { type: Math.abs(value) <= 2_147_483_647 ? 'int' : 'bigint', value };
    return { type: 'decimal', value: String(value) };
  }
  return { type: 'string', value };
}

/** A row value as a token value (dates arrive as text from every driver). */
export function tokenValue(value: unknown): KeysetValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return String(value);
}

/**
 * The read plan of a keyset page: the ordering values added to the SELECT (as keysetField(n),
 * for the next token), and, after a token, the condition instead of an offset.
 */
export function keysetPlan(plan: ReadPlan, keyColumn: string | null, values: readonly KeysetValue[] | null): ReadPlan {
  const columns: KeysetColumn[] = plan.orderBy.map((o) => ({ ...o, nullable: o.column !== keyColumn }));
  return {
    ...plan,
    select: [...plan.select, ...plan.orderBy.map((o, i) => ({ column: o.column, name: keysetField(i), asText: true }))],
    keyset: values === null ? null : { columns, values: values.map(keysetParam) },
    page: values === null || plan.page === null ? plan.page : { skip: 0, fetch: plan.page.fetch },
  };
}

/** The last row's ordering values (for the next token), and every row without them. */
export function takeKeysetValues(rows: Row[], count: number): KeysetValue[] | null {
  const last = rows[rows.length - 1];
  const values = last === undefined ? null : Array.from({ length: count }, (_, i) => tokenValue(last[keysetField(i)]));
  for (const row of rows) for (let i = 0; i < count; i++) delete row[keysetField(i)];
  return values;
}

/** What a token is bound to: the endpoint and the ordering it pages through. */
export function keysetBinding(endpointId: string, orderby: string | undefined): string {
  return `${endpointId}\u0000${orderby ?? ''}`;
}
