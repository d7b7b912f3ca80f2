/**
 * Canonical JSON text for generated files: object keys sorted by UTF-16 code unit order
 * (recursively, never locale-dependent), 2-space indentation, trailing newline. Array order is
 * kept (callers sort arrays where order carries no meaning). Two equal values always give the
 * same bytes, so a diff of generated/ only ever shows real changes.
 */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
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
