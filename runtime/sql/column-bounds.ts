/**
 * What values a key column can hold, from the same catalogue read as the column kinds
 * (column-types.ts): its kind (a number column holds numbers, a whole number when it is an integer
 * type; a uuid column GUIDs), an integer type's range, a numeric(p,s)'s digits before the point, a
 * varchar's maximum length. A record key of the wrong kind or outside them names no record: every
 * method answers 404 like a missing record (reads `No record found with <Key> = <id>`, writes
 * `Record not found`, procedure writes included) without running SQL the database would refuse as
 * a value error (handler.ts, write-handler.ts, batch-handler.ts). A fixed-length text (char, nchar)
 * is not bounded here: the database pads it, so a longer key with trailing blanks can still match.
 * Date, time and boolean key columns are not checked here (the database decides).
 */
import type { SnapshotColumn } from '../contract/db-snapshot.js';
import type { ColumnKinds, ValueKind } from './odata/type-check.js';
import type { TypedValue } from './plan.js';
import { GUID_TEXT } from './record-key.js';

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
  // as doubles: every key parsed as a number (at most 15 digits) lies inside
  bigint: [-9_223_372_036_854_775_808, 9_223_372_036_854_775_807],
  int8: [-9_223_372_036_854_775_808, 9_223_372_036_854_775_807],
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

/** The bound of a column kept with the kinds map (undefined: not bounded, or not known). */
export function columnBound(kinds: ColumnKinds, column: string): ColumnBound | undefined {
  return BOUNDS.get(kinds)?.get(column);
}

/** Whether the catalogue says the column is of an integer type (smallint, int, bigint, ...). */
export function isIntegerColumn(kinds: ColumnKinds | undefined, column: string): boolean {
  return kinds !== undefined && BOUNDS.get(kinds)?.get(column)?.kind === 'integer';
}

const WHOLE_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/** false only when the key's text cannot be a value of the column's kind (a number, a GUID). */
function fitsKind(value: TypedValue, kind: ValueKind | undefined, bound: ColumnBound | undefined): boolean {
  if (value.value === null) return true;
  const text = String(value.value);
  if (kind === 'number') return (bound?.kind === 'integer' ? WHOLE_TEXT : NUMBER_TEXT).test(text);
  if (kind === 'guid') return GUID_TEXT.test(text);
  return true;
}

/**
 * Whether a record key can be one of the column's values: of its kind and inside its bound (true
 * when the column's kind and bound are not known: a failed catalogue read).
 */
export function fitsColumn(kinds: ColumnKinds | undefined, column: string, value: TypedValue): boolean {
  if (kinds === undefined) return true;
  const bound = BOUNDS.get(kinds)?.get(column);
  return fitsKind(value, kinds.get(column), bound) && fitsBound(value, bound);
}
