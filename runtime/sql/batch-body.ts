/**
 * Validation of a batch write (Table mode) before any SQL runs:
 *   POST   with a JSON array of objects: every row validated like a single POST (write-body.ts);
 *          every failure of every row is collected into one 422 whose details name the row
 *          (`field: "[2].Code"`), at most MAX_DETAILS of them; nothing is written when any row fails.
 *   DELETE with a JSON array of keys (numbers or strings): the records to remove together.
 * Request-level problems are a 400 (an empty array, an item that is not an object, a key that is
 * not a scalar); more rows than the endpoint's limit is a 413 (batch-limits.ts).
 */
import type { SqlEndpoint } from '../contract/model.js';
import { WharfError, type ErrorDetail } from '../errors/wharf-error.js';
import type { ColumnKinds } from './odata/type-check.js';
import type { TypedValue } from './plan.js';
import { parseRecordKey } from './record-key.js';
import { MAX_DETAILS, validateWrite, validationFailed, type ValidWrite } from './write-body.js';

/** A write body that asks for a batch (a JSON array). */
export function isBatchBody(body: unknown): body is readonly unknown[] {
  return Array.isArray(body);
}

function checkSize(items: readonly unknown[], limit: number): void {
  if (items.length === 0) throw new WharfError('SQL_BODY_EMPTY');
  if (items.length > limit) throw new WharfError('SQL_BATCH_TOO_LARGE', { reason: `A batch may hold at most ${limit} rows; this one has ${items.length}` });
}

/** Every row of a batch POST, validated; one 422 listing every failure of every row by index. */
export function validateBatchInsert(endpoint: SqlEndpoint, items: readonly unknown[], limit: number, kinds?: ColumnKinds): ValidWrite[] {
  checkSize(items, limit);
  const notObject = items.findIndex((item) => item === null || typeof item !== 'object' || Array.isArray(item));
  if (notObject >= 0) throw new WharfError('SQL_BAD_REQUEST', { reason: `Every item of a batch must be a JSON object (item ${notObject} is not)` });
  const rows: ValidWrite[] = [];
  const details: ErrorDetail[] = [];
  // rows are validated until more problems were found than one 422 lists (MAX_DETAILS)
  for (let index = 0; index < items.length && details.length <= MAX_DETAILS; index++) {
    try {
      rows.push(validateWrite(endpoint, { method: 'POST', body: items[index], pathId: null, query: {} }, kinds));
    } catch (error) {
      if (!(error instanceof WharfError)) throw error;
      if (error.details) for (const d of error.details) details.push({ field: `[${index}].${d.field}`, message: `Row ${index}: ${d.message}` });
      else details.push({ field: `[${index}]`, message: `Row ${index}: ${error.message}` });
    }
  }
  if (details.length > 0) throw validationFailed(details);
  return rows;
}

/** The keys of a batch DELETE (duplicates removed, first occurrence kept). */
export function validateBatchDelete(items: readonly unknown[], limit: number): TypedValue[] {
  checkSize(items, limit);
  const keys: TypedValue[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (!(typeof item === 'number' && Number.isSafeInteger(item)) && !(typeof item === 'string' && item !== '')) {
      throw new WharfError('SQL_BAD_REQUEST', { reason: `Every item of a batch DELETE must be a record key, a whole number or a text (item ${index} is not)` });
    }
    const text = String(item);
    if (seen.has(text)) return;
    seen.add(text);
    keys.push(parseRecordKey(text));
  });
  return keys;
}
