/**
 * Prints a JSON-compatible value as a TypeScript (and JavaScript) expression: single quotes,
 * 2-space indentation, trailing commas, short scalar arrays on one line. Output depends only on
 * the value (key order as inserted), never on the machine. Plain string building: no printer
 * library to load (ts-morph took longer to import than a thousand modules take to print).
 */

const INLINE_ARRAY_LIMIT = 100;
const STEP = '  ';

/**
 * The expression for `value`. Its first line continues the caller's line; every further line is
 * indented relative to `indent`, the indentation of the line the expression starts on.
 */
export function printLiteral(value: unknown, indent = ''): string {
  if (Array.isArray(value)) return printArray(value, indent);
  if (value !== null && typeof value === 'object') return printObject(value as Record<string, unknown>, indent);
  return scalar(value);
}

function printArray(items: readonly unknown[], indent: string): string {
  if (items.length === 0) return '[]';
  if (items.every(isScalar)) {
    const inline = `[${items.map(scalar).join(', ')}]`;
    if (inline.length <= INLINE_ARRAY_LIMIT) return inline;
  }
  const inner = indent + STEP;
  let out = '[\n';
  for (const item of items) out += `${inner}${printLiteral(item, inner)},\n`;
  return `${out}${indent}]`;
}

function printObject(record: Record<string, unknown>, indent: string): string {
  const keys = Object.keys(record).filter((k) => record[k] !== undefined);
  if (keys.length === 0) return '{}';
  const inner = indent + STEP;
  let out = '{\n';
  for (const key of keys) out += `${inner}${propertyName(key)}: ${printLiteral(record[key], inner)},\n`;
  return `${out}${indent}}`;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean' || value === null) return String(value);
  throw new TypeError(`ts-literal: cannot print ${typeof value}`);
}

/** A single-quoted string literal (JSON escapes are valid TypeScript escapes). */
export function quote(text: string): string {
  const body = JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${body}'`;
}

function propertyName(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : quote(key);
}
