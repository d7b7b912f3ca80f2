/**
 * Columns a response transform hides (`Mask` or `Remove`). Such a column must not be usable as
 * an oracle: not in `$filter` (any clause, including QUERY bodies), not in `$orderby`, and not as
 * a key. `$select` stays allowed, since the transform still hides the value in the output.
 * Keyed by exposed name (the alias when there is one).
 */
import { ODataError } from './errors.js';

export type HiddenReason = 'masked' | 'removed';
export type HiddenColumns = ReadonlyMap<string, HiddenReason>;

export const NO_HIDDEN: HiddenColumns = new Map();

export interface TransformNames {
  readonly remove: readonly string[];
  readonly mask: readonly string[];
}

/**
 * Build the hidden set for an endpoint. A transform may name a column by its exposed name or by
 * its database name; both hide the column under its exposed name. Remove wins over Mask.
 */
export function hiddenColumns(
  columns: readonly { readonly db: string; readonly name: string }[],
  t: TransformNames,
): HiddenColumns {
  if (t.remove.length === 0 && t.mask.length === 0) return NO_HIDDEN;
  const out = new Map<string, HiddenReason>();
  const named = (list: readonly string[], c: { db: string; name: string }) =>
    list.some((n) => n.toLowerCase() === c.name.toLowerCase() || n.toLowerCase() === c.db.toLowerCase());
  for (const c of columns) {
    if (named(t.remove, c)) out.set(c.name, 'removed');
    else if (named(t.mask, c)) out.set(c.name, 'masked');
  }
  return out;
}

export function hiddenMessage(name: string, reason: HiddenReason, verb: string): string {
  const what = reason === 'masked' ? 'is masked in responses' : 'is removed from responses';
  return `column '${name.slice(0, 100)}' ${what} and cannot be ${verb}`;
}

/** Throw a 400 when `name` is hidden: `<option>: column 'X' is masked in responses and cannot be <verb> at position <n>`. */
export function assertVisible(hidden: HiddenColumns, name: string, option: string, verb: string, position: number): void {
  const reason = hidden.get(name);
  if (reason === undefined) return;
  throw ODataError.at(option, hiddenMessage(name, reason, verb), position);
}
