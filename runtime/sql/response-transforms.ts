/** ResponseTransforms on output rows (after alias mapping): Remove wins, then Rename, then Mask. */
import type { ResponseTransforms } from '../contract/model.js';
import type { Row } from './drivers/driver.js';

export const MASK = '***';

export function hasTransforms(t: ResponseTransforms): boolean {
  return t.remove.length > 0 || t.mask.length > 0 || Object.keys(t.rename).length > 0;
}

export function applyTransforms(row: Row, t: ResponseTransforms): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (t.remove.includes(key)) continue;
    // A masked null is masked too: `null` vs `***` would tell which rows have a value.
    const masked = t.mask.includes(key) ? MASK : value;
    const name = Object.hasOwn(t.rename, key) ? (t.rename[key] as string) : key;
    out[name] = masked;
  }
  return out;
}
