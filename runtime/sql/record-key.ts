/**
 * The `{id}` of GET /{id}, typed by its shape (the column type is not in the model): an integer
 * when it is one, a GUID when it looks like one, else a string. A key that does not fit the key
 * column (its kind or its range, column-bounds.ts) names no record: 404 like a missing row, on
 * every method; so is one the database reports as a value error when the column was not known.
 */
import { WharfError } from '../errors/wharf-error.js';
import type { TypedValue } from './plan.js';

export const MAX_KEY_LENGTH = 400;

/** A GUID as text (8-4-4-4-12 hex digits). */
export const GUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseRecordKey(text: string): TypedValue {
  if (text.length === 0 || text.length > MAX_KEY_LENGTH) throw new WharfError('SQL_BAD_REQUEST', { reason: `Invalid key: length must be 1 to ${MAX_KEY_LENGTH} characters` });
  if (text.includes('\u0000')) throw new WharfError('SQL_BAD_REQUEST', { reason: 'Invalid key: it must not contain the NUL character (U+0000)' });
  if (/^-?\d{1,15}$/.test(text)) {
    const n = Number(text);
    return { type: Math.abs(n) <= 2_147_483_647 ? 'int' : 'bigint', value: n };
  }
  if (GUID_TEXT.test(text)) return { type: 'guid', value: text.toLowerCase() };
  return { type: 'string', value: text };
}
