/**
 * The WHERE condition of keyset paging (keyset.ts), per dialect; each value is one parameter
 * (its placeholder reused). NULLs sort last ascending and first descending on PostgreSQL, first
 * ascending and last descending on SQL Server, and the condition follows that order.
 *  - PostgreSQL, one direction, no NULL among the values: a row-value comparison
 *    `("t"."Price", "t"."ProductId") > ($1, $2)` (index-friendly; ascending, the rows with a NULL
 *    in an earlier column are added: `OR ("t"."Price" IS NULL)`);
 *  - otherwise the expanded form: `(a > $1) OR (a = $1 AND b > $2) OR ...` with the NULL cases.
 */
import type { KeysetCondition } from '../plan.js';
import type { DialectName } from './dialect-name.js';

export interface KeysetSqlParts {
  readonly dialect: DialectName;
  /** Qualified column. */
  readonly column: (name: string) => string;
  /** Placeholder of a new parameter. */
  readonly param: (index: number) => string;
}

export function keysetSql(k: KeysetCondition, parts: KeysetSqlParts): string {
  const cols = k.columns.map((c) => parts.column(c.column));
  const placeholders = k.values.map((v, i) => (v.value === null ? null : parts.param(i)));
  const nullsFirstAscending = parts.dialect === 'mssql';
  const eq = (i: number): string => (placeholders[i] === null ? `${cols[i]} IS NULL` : `${cols[i]} = ${placeholders[i]}`);
  const direction = k.columns[0]?.direction ?? 'asc';
  const sameDirection = k.columns.every((c) => c.direction === direction);
  if (parts.dialect === 'postgres' && sameDirection && placeholders.every((p) => p !== null)) {
    const op = direction === 'asc' ? '>' : '<';
    const row = cols.length === 1 ? `${cols[0]} ${op} ${placeholders[0]}` : `(${cols.join(', ')}) ${op} (${placeholders.join(', ')})`;
    if (direction === 'desc') return row;
    // ascending: NULLs come last, so rows with an equal prefix and a NULL are after the page too
    const nulls = k.columns.flatMap((c, i) => (c.nullable ? [[...cols.slice(0, i).map((_, j) => eq(j)), `${cols[i]} IS NULL`].join(' AND ')] : []));
    return nulls.length === 0 ? row : `(${row} OR ${nulls.map((n) => `(${n})`).join(' OR ')})`;
  }
  const disjuncts: string[] = [];
  k.columns.forEach((c, i) => {
    const p = placeholders[i];
    const nullsLast = c.direction === 'asc' ? !nullsFirstAscending : nullsFirstAscending;
    const op = c.direction === 'asc' ? '>' : '<';
    let after: string | null;
    if (p === null) after = nullsLast ? null : `${cols[i]} IS NOT NULL`;
    else after = nullsLast && c.nullable ? `(${cols[i]} ${op} ${p} OR ${cols[i]} IS NULL)` : `${cols[i]} ${op} ${p}`;
    if (after !== null) disjuncts.push([...cols.slice(0, i).map((_, j) => eq(j)), after].join(' AND '));
  });
  return `(${disjuncts.map((d) => `(${d})`).join(' OR ')})`;
}
