/**
 * Canonical JSON text for generated files: object keys sorted by UTF-16 code unit order
 * (recursively, never locale-dependent), 2-space indentation, trailing newline. Array order is
 * kept (callers sort arrays where order carries no meaning). Two equal values always give the
 * same bytes, so a diff of generated/ only ever shows real changes.
 *
 * The text is exactly `JSON.stringify(sortKeys(value), null, 2)` (canonical-json.test.ts holds
 * them equal), written in one pass without the sorted deep copy: for the 1,000-endpoint OpenAPI
 * documents that copy and the second walk were most of the emit stage's time. Like
 * JSON.stringify of that copy, keys that are array indices ("200", "404") come first in numeric
 * order (JavaScript enumerates them so), the others follow in code unit order.
 */
export function canonicalJson(value: unknown): string {
  const text = write(value, '');
  return `${text ?? 'undefined'}\n`;
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

/** The text of `value` at indentation `indent`; undefined where JSON.stringify leaves the value out. */
function write(value: unknown, indent: string): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    case 'bigint':
      return JSON.stringify(value); // throws, as JSON.stringify of the sorted copy does
    default:
      return undefined; // undefined, functions, symbols
  }
  if (value === null) return 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    let text = '[';
    for (let i = 0; i < value.length; i++) text += `${i === 0 ? '\n' : ',\n'}${inner}${write(value[i], inner) ?? 'null'}`;
    return `${text}\n${indent}]`;
  }
  if (!isPlainObject(value)) throw new TypeError(`canonicalJson: cannot serialize ${describe(value)}`);
  const object = value as Record<string, unknown>;
  if (typeof object.toJSON === 'function') return JSON.stringify(sortKeys(value), null, 2).replace(/\n/g, `\n${indent}`);
  let text = '';
  for (const key of orderedKeys(object)) {
    const entry = write(object[key], inner);
    if (entry !== undefined) text += `${text === '' ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: ${entry}`;
  }
  return text === '' ? '{}' : `${text}\n${indent}}`;
}

/**
 * The keys in the order JSON.stringify writes the sorted copy: array indices first, ascending
 * (Object.keys already lists them so), then the other keys in code unit order.
 */
function orderedKeys(object: object): string[] {
  const keys = Object.keys(object);
  let indices = 0;
  while (indices < keys.length && isArrayIndex(keys[indices] as string)) indices++;
  if (indices === 0) return keys.sort(compareCodeUnits);
  return [...keys.slice(0, indices), ...keys.slice(indices).sort(compareCodeUnits)];
}

/** A canonical numeric string below 2^32 - 1: what JavaScript orders as an integer index. */
function isArrayIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57 || (first === 48 && key.length > 1) || key.length > 10) return false;
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(key) < 4294967295;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: object): string {
  return value.constructor?.name ?? 'object';
}
