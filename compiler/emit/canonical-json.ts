/**
 * Canonical JSON text for generated files: object keys sorted by UTF-16 code unit order
 * (recursively, never locale-dependent), 2-space indentation, trailing newline. Array order is
 * kept (callers sort arrays where order carries no meaning). Two equal values always give the
 * same bytes, so a diff of generated/ only ever shows real changes.
 *
 * The text is exactly `JSON.stringify(sortKeys(value), null, 2)` (canonical-json.test.ts holds
 * them equal), but only the objects whose keys are out of order are copied: for the
 * 1,000-endpoint OpenAPI documents, whose parts are mostly built in order, the full sorted copy
 * was most of the emit stage's time.
 */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(inOrder(value), null, 2)}\n`;
}

/** A deep copy of `value` whose objects have their keys inserted in sorted order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  if (!isPlainObject(value)) throw new TypeError(`canonicalJson: cannot serialize ${describe(value)}`);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compareCodeUnits)) {
    const entry = (value as Record<string, unknown>)[key];
    if (entry !== undefined) out[key] = sortKeys(entry);
  }
  return out;
}

/**
 * `value` itself when JSON.stringify already writes it as of sortKeys (every object's keys in
 * order), else a copy where only what is out of order (and the objects holding it) is new.
 * JavaScript lists keys that are array indices ("200", "404") first, ascending, whatever their
 * insertion order, in the sorted copy as here: the order checked is that of the other keys.
 */
function inOrder(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const ordered = inOrder(item);
      if (ordered !== item) (copy ??= value.slice())[i] = ordered;
    }
    return copy ?? value;
  }
  if (!isPlainObject(value)) throw new TypeError(`canonicalJson: cannot serialize ${describe(value)}`);
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let changed = false;
  let previous: string | null = null;
  const entries: unknown[] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (!changed && !isArrayIndex(key)) {
      if (previous !== null && previous > key) changed = true;
      previous = key;
    }
    const entry = object[key];
    const ordered = inOrder(entry);
    entries[i] = ordered;
    if (ordered !== entry) changed = true;
  }
  if (!changed) return value;
  const byKey = new Map(keys.map((key, i) => [key, entries[i]] as const));
  const out: Record<string, unknown> = {};
  for (const key of keys.sort(compareCodeUnits)) {
    const entry = byKey.get(key);
    if (entry !== undefined) out[key] = entry;
  }
  return out;
}

/** A canonical numeric string below 2^32 - 1: a key JavaScript lists first, in numeric order. */
function isArrayIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57 || (first === 48 && key.length > 1) || key.length > 10) return false;
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(key) < 4294967295;
}

/** Plain `<`/`>` comparison: the same order on every machine and locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: object): string {
  return value.constructor?.name ?? 'object';
}
