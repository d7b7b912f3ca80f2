/**
 * What values an integer or variable-length text column can hold, from the same catalogue read as
 * the column kinds (column-types.ts): an integer type's range, a numeric(p,s)'s digits before the
 * point, a varchar's maximum length. A write's record key outside them names no record: the write
 * answers 404 like a missing record without running SQL the database would refuse as a value error
 * (write-handler.ts, batch-handler.ts). A fixed-length text (char, nchar) is not bounded here: the
 * database pads it, so a longer key with trailing blanks can still match.
 */
import type { SnapshotColumn } from '../contract/db-snapshot.js';
import type { ColumnKinds } from './odata/type-check.js';
import type { TypedValue } from './plan.js';

export type ColumnBound =
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  /** Whole numbers below 10^digits in magnitude (numeric(p,s): p - s digits). */
  | { readonly kind: 'digits'; readonly digits: number }
  | { readonly kind: 'length'; readonly max: number };

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  tinyint: [0, 255],
  smallint: [-32_768, 32_767],
  int2: [-32_768, 32_767],
  integer: [-2_147_483_648, 2_147_483_647],
  int: [-2_147_483_648, 2_147_483_647],
  int4: [-2_147_483_648, 2_147_483_647],
};

const VARIABLE_TEXT = new Set(['character varying', 'varchar', 'nvarchar']);

/** The bound of a catalogue column, or undefined when its values are not bounded here. */
export function boundOfColumn(column: SnapshotColumn): ColumnBound | undefined {
  const type = column.type.toLowerCase().trim();
  const range = INTEGER_RANGES[type];
  if (range !== undefined) return { kind: 'integer', min: range[0], max: range[1] };
  if ((type === 'numeric' || type === 'decimal') && column.precision !== undefined) return { kind: 'digits', digits: column.precision - (column.scale ?? 0) };
  if (VARIABLE_TEXT.has(type) && column.maxLength !== undefined) return { kind: 'length', max: column.maxLength };
  return undefined;
}

/** false only when the value certainly cannot be stored in (so cannot be found in) the column. */
export function fitsBound(value: TypedValue, bound: ColumnBound | undefined): boolean {
  if (bound === undefined) return true;
  const v = value.value;
  if (bound.kind === 'length') {
    if (typeof v !== 'string' || (value.type !== 'string' && value.type !== 'guid')) return true;
    // characters, not UTF-16 units; trailing blanks are insignificant in SQL Server comparisons
    return v.length <= bound.max || [...v.replace(/ +$/, '')].length <= bound.max;
  }
  if (typeof v !== 'number' || (value.type !== 'int' && value.type !== 'bigint')) return true;
  if (bound.kind === 'integer') return v >= bound.min && v <= bound.max;
  return Math.abs(v) < 10 ** bound.digits;
}

const BOUNDS = new WeakMap<ColumnKinds, ReadonlyMap<string, ColumnBound>>();

/** Keeps the bounds of an object's columns with its kinds map (the map the handlers already carry). */
export function keepBounds(kinds: ColumnKinds, columns: readonly SnapshotColumn[]): void {
  const bounds = new Map<string, ColumnBound>();
  for (const column of columns) {
    const bound = boundOfColumn(column);
    if (bound !== undefined) bounds.set(column.name, bound);
  }
  BOUNDS.set(kinds, bounds);
}

/** Whether a value can be one of the column's (true when the column's bound is not known). */
export function fitsColumn(kinds: ColumnKinds | undefined, column: string, value: TypedValue): boolean {
  return kinds === undefined || fitsBound(value, BOUNDS.get(kinds)?.get(column));
}
