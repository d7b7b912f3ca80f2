/**
 * Validation of a SQL write before any SQL runs. Every failure of one request (at most
 * MAX_DETAILS) is collected into the 422 `details` (`<Col> is required`, `<Prop> is not an allowed property`, `<Col> must be a
 * number` and the like, `<Col> does not match the required format` or the configured message);
 * request-level problems (no body, key disagreement, no key) are a 400 with one message. Pure: the
 * column kinds come from the database catalogue read beforehand (column-types.ts).
 *
 * JSON type against column: where the catalogue gives the column's kind, the value must be of it
 * (number: a JSON number or a string holding a decimal number; string, date, date-time, time, GUID:
 * a JSON string; boolean: true or false); null is left to the required rule and the database.
 * A ColumnValidation pattern is tested against every scalar's text (a number too) and refuses
 * objects and arrays outright, whether or not the kind is known. A string with a lone UTF-16
 * surrogate is refused (`<Col> must be valid Unicode`): no database stores it as sent; one with U+0000
 * too (`<Col> must not contain the NUL character`: PostgreSQL text cannot hold it, SQL Server can). A value for a
 * column the database sets itself (read-only-columns.ts) is `<Col> is set by the database and cannot be written`.
 */
import type { SqlColumn, SqlEndpoint } from '../contract/model.js';
import { WharfError, type ErrorDetail } from '../errors/wharf-error.js';
import { LONE_SURROGATE } from './odata/literals.js';
import type { ColumnKinds, ValueKind } from './odata/type-check.js';
import type { TypedValue } from './plan.js';
import { parseRecordKey } from './record-key.js';
import { isReadOnly, readOnlyMessage } from './read-only-columns.js';

export interface ColumnValue {
  /** Database column (from AllowedColumns). */
  readonly column: string;
  readonly value: TypedValue;
}

export type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Nesting depth of an object/array value (stored as JSON text) beyond which it is refused. */
export const MAX_VALUE_DEPTH = 32;

export interface ValidWrite {
  /** Body values by database column, in body order (the key included when the body has it). */
  readonly values: readonly ColumnValue[];
  /** The record key (path, `?id=` or body); null on POST without one. */
  readonly key: TypedValue | null;
  /** The key as text for messages and Location (null when there is none). */
  readonly keyText: string | null;
}

function depthExceeds(value: unknown, depth: number): boolean {
  if (depth > MAX_VALUE_DEPTH) return true;
  if (Array.isArray(value)) return value.some((v) => depthExceeds(v, depth + 1));
  if (value !== null && typeof value === 'object') return Object.values(value).some((v) => depthExceeds(v, depth + 1));
  return false;
}

/** A JSON value as a parameter; a message when it cannot be one. */
export function typedValue(value: unknown): TypedValue | string {
  if (value === null) return { type: 'string', value: null };
  switch (typeof value) {
    case 'string':
      return { type: 'string', value };
    case 'boolean':
      return { type: 'boolean', value };
    case 'number':
      if (Number.isInteger(value)) {
        if (!Number.isSafeInteger(value)) return 'is a number outside the supported range';
        return { type: Math.abs(value) <= 2_147_483_647 ? 'int' : 'bigint', value };
      }
      return { type: 'decimal', value: String(value) };
    default:
      if (depthExceeds(value, 1)) return `is nested more than ${MAX_VALUE_DEPTH} levels deep`;
      return { type: 'string', value: JSON.stringify(value) };
  }
}

function findColumn(columns: readonly SqlColumn[], prop: string): SqlColumn | undefined {
  const lower = prop.toLowerCase();
  return columns.find((c) => c.name === prop || c.db === prop) ?? columns.find((c) => c.name.toLowerCase() === lower || c.db.toLowerCase() === lower);
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

const PATTERNS = new Map<string, RegExp>();

function patternOf(source: string): RegExp {
  let re = PATTERNS.get(source);
  if (!re) {
    re = new RegExp(source);
    PATTERNS.set(source, re);
  }
  return re;
}

function sameKey(a: TypedValue, b: TypedValue): boolean {
  return String(a.value) === String(b.value);
}

/**
 * Key text of the URL: the path segment, else `?id=`; null without either. A key given twice
 * (`?id=` repeated, or a path key and `?id=`) is a 400, never one of them picked silently.
 */
export function urlKeyText(pathId: string | null, query: Readonly<Record<string, unknown>>): string | null {
  const raw = query['id'];
  const given = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string' && v !== '');
  if (given.length > 1 || (given.length === 1 && pathId !== null)) throw new WharfError('SQL_KEY_AMBIGUOUS');
  return pathId ?? given[0] ?? null;
}

export interface WriteInput {
  readonly method: WriteMethod;
  readonly body: unknown;
  /** Id path segment, if any. */
  readonly pathId: string | null;
  readonly query: Readonly<Record<string, unknown>>;
}

const DECIMAL_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** What a column of this kind takes, for the message `<Col> must be <...>`. */
const KIND_WANTS: Readonly<Record<ValueKind, string>> = {
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  date: 'a date string',
  datetime: 'a date-time string',
  time: 'a time string',
  guid: 'a GUID string',
};

function fitsKind(kind: ValueKind, raw: unknown): boolean {
  if (raw === null) return true;
  switch (kind) {
    case 'number':
      return typeof raw === 'number' || (typeof raw === 'string' && DECIMAL_TEXT.test(raw.trim()));
    case 'boolean':
      return typeof raw === 'boolean';
    default:
      return typeof raw === 'string';
  }
}

function isScalar(raw: unknown): raw is string | number | boolean {
  return typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean';
}

/**
 * Problems one 422 lists at most: a body of thousands of bad properties (or a batch of a thousand
 * such rows) must not become a response many times its size, nor hold the event loop while it is
 * built. Validation stops once more were found; a last detail says so.
 */
export const MAX_DETAILS = 50;
const MORE_DETAILS: ErrorDetail = { field: 'body', message: `More than ${MAX_DETAILS} problems; only the first ${MAX_DETAILS} are listed` };

/** The 422 of `details`: at most MAX_DETAILS of them, then MORE_DETAILS. */
export function validationFailed(details: readonly ErrorDetail[]): WharfError {
  const listed = details.length > MAX_DETAILS ? [...details.slice(0, MAX_DETAILS), MORE_DETAILS] : details;
  return new WharfError('SQL_VALIDATION_FAILED', undefined, { details: listed });
}

/** A property name as a message shows it: at most 100 characters (it is the caller's text). */
function shown(prop: string): string {
  return prop.length > 100 ? `${prop.slice(0, 100)}…` : prop;
}

export function validateWrite(endpoint: SqlEndpoint, input: WriteInput, kinds: ColumnKinds = new Map()): ValidWrite {
  const keyColumn = endpoint.primaryKey;
  const keyCol = keyColumn === null ? undefined : endpoint.columns.find((c) => c.db === keyColumn);
  const urlId = urlKeyText(input.pathId, input.query);
  let key: TypedValue | null = urlId === null ? null : parseRecordKey(urlId);
  if (input.method === 'DELETE') {
    if (key === null) throw new WharfError('SQL_KEY_REQUIRED');
    // a JSON array of keys is a batch only without a URL key (write-handler.ts)
    if (Array.isArray(input.body)) throw new WharfError('SQL_KEY_AMBIGUOUS');
    return { values: [], key, keyText: urlId };
  }
  const body = input.body;
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) {
    throw new WharfError('SQL_BODY_EMPTY');
  }
  if (typeof body !== 'object' || Array.isArray(body)) throw new WharfError('SQL_BODY_NOT_OBJECT');

  const details: ErrorDetail[] = [];
  const values: ColumnValue[] = [];
  const seen = new Set<string>();
  for (const [prop, raw] of Object.entries(body)) {
    if (details.length > MAX_DETAILS) break;
    const column = findColumn(endpoint.columns, prop);
    if (!column) {
      details.push({ field: shown(prop), message: `${shown(prop)} is not an allowed property` });
      continue;
    }
    if (seen.has(column.db)) {
      details.push({ field: shown(prop), message: `${column.name} is given more than once` });
      continue;
    }
    seen.add(column.db);
    // a computed (or SQL Server identity) column: the key of a PUT/PATCH only locates the record
    if (isReadOnly(kinds, column.db) && (input.method === 'POST' || column.db !== keyColumn)) {
      details.push({ field: column.name, message: readOnlyMessage(column.name) });
      continue;
    }
    const typed = typedValue(raw);
    if (typeof typed === 'string') {
      details.push({ field: column.name, message: `${column.name} ${typed}` });
      continue;
    }
    // the driver would store U+FFFD in its place: the record would not be what was sent
    if (typeof raw === 'string' && LONE_SURROGATE.test(raw)) {
      details.push({ field: column.name, message: `${column.name} must be valid Unicode (it contains a lone surrogate)` });
      continue;
    }
    // PostgreSQL text cannot hold U+0000 (SQL Server stores it): refused alike on every database
    if (typeof raw === 'string' && raw.includes('\u0000')) {
      details.push({ field: column.name, message: `${column.name} must not contain the NUL character (U+0000)` });
      continue;
    }
    const kind = kinds.get(column.db);
    if (kind !== undefined && !fitsKind(kind, raw)) {
      details.push({ field: column.name, message: `${column.name} must be ${KIND_WANTS[kind]}` });
      continue;
    }
    const rule = endpoint.columnValidation.find((v) => v.column === column.db);
    if (rule && raw !== null && !(isScalar(raw) && patternOf(rule.regex).test(String(raw)))) {
      details.push({ field: column.name, message: rule.message ?? `${column.name} does not match the required format` });
    }
    values.push({ column: column.db, value: typed });
  }
  // POST and PUT carry the whole record; PATCH only what it changes (a given required column must not be blank)
  const whole = input.method === 'POST' || input.method === 'PUT';
  for (const required of details.length > MAX_DETAILS ? [] : endpoint.requiredColumns) {
    const name = endpoint.columns.find((c) => c.db === required)?.name ?? required;
    const given = Object.entries(body).find(([prop]) => findColumn(endpoint.columns, prop)?.db === required);
    if (given === undefined ? whole : isBlank(given[1])) {
      if (!details.some((d) => d.field === name)) details.push({ field: name, message: `${name} is required` });
    }
  }
  if (details.length > 0) throw validationFailed(details);

  const bodyKey = keyCol === undefined ? undefined : values.find((v) => v.column === keyCol.db)?.value;
  if (input.method !== 'POST') {
    if (bodyKey !== undefined && key !== null && !sameKey(bodyKey, key)) {
      throw new WharfError('SQL_KEY_MISMATCH', { keyName: keyCol?.name ?? 'key' });
    }
    if (key === null && bodyKey !== undefined && bodyKey.value !== null) key = bodyKey;
    if (key === null) throw new WharfError('SQL_KEY_REQUIRED');
  } else if (key === null && bodyKey !== undefined && bodyKey.value !== null) key = bodyKey;
  return { values, key, keyText: key === null ? null : String(key.value) };
}
