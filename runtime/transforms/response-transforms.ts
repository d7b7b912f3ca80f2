/**
 * ResponseTransforms, one pure module for every endpoint kind (SQL now; Proxy and Composite reuse
 * it). Names are output names (after alias mapping). Per object: Remove wins, then Rename, then
 * Mask (the value becomes `***`, null included, so the output does not tell which rows have one).
 * `transformBody` applies the rules to a JSON body: an object, each element of an array, and each
 * element of a `value` array wrapper (the paging envelope and OData collections).
 */
import type { ResponseTransforms } from '../contract/model.js';

export const MASK = '***';

type JsonObject = Record<string, unknown>;

export function hasTransforms(t: ResponseTransforms): boolean {
  return t.remove.length > 0 || t.mask.length > 0 || Object.keys(t.rename).length > 0;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One object (a row): a new object, the input is not changed. */
export function applyTransforms<T extends JsonObject>(row: T, t: ResponseTransforms): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(row)) {
    if (t.remove.includes(key)) continue;
    const masked = t.mask.includes(key) ? MASK : value;
    const name = Object.hasOwn(t.rename, key) ? (t.rename[key] as string) : key;
    // a field named __proto__ (JSON.parse makes it an own property) stays a field: assigned, it
    // would set the row's prototype and vanish from the answer
    if (name === '__proto__') Object.defineProperty(out, name, { value: masked, enumerable: true, writable: true, configurable: true });
    else out[name] = masked;
  }
  return out;
}

/**
 * A whole JSON body: arrays element by element, objects with a `value` array as an envelope
 * (the envelope's own fields are kept as they are), any other object as one row. Scalars and
 * null pass untouched.
 */
export function transformBody(body: unknown, t: ResponseTransforms): unknown {
  if (!hasTransforms(t)) return body;
  if (Array.isArray(body)) return body.map((item) => (isObject(item) ? applyTransforms(item, t) : item));
  if (!isObject(body)) return body;
  if (Array.isArray(body['value'])) {
    return { ...body, value: (body['value'] as unknown[]).map((item) => (isObject(item) ? applyTransforms(item, t) : item)) };
  }
  return applyTransforms(body, t);
}
