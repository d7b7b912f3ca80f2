/**
 * Prints a JSON-compatible value as a TypeScript expression through ts-morph's CodeBlockWriter:
 * single quotes, 2-space indentation, trailing commas, short scalar arrays on one line. Output
 * depends only on the value (key order as inserted), never on the machine.
 */
import type { CodeBlockWriter } from 'ts-morph';

const INLINE_ARRAY_LIMIT = 100;

export function writeLiteral(writer: CodeBlockWriter, value: unknown): void {
  if (Array.isArray(value)) return writeArray(writer, value);
  if (value !== null && typeof value === 'object') return writeObject(writer, value as Record<string, unknown>);
  writer.write(scalar(value));
}

function writeArray(writer: CodeBlockWriter, items: readonly unknown[]): void {
  if (items.length === 0) return void writer.write('[]');
  if (items.every(isScalar)) {
    const inline = `[${items.map(scalar).join(', ')}]`;
    if (inline.length <= INLINE_ARRAY_LIMIT) return void writer.write(inline);
  }
  writer.write('[').newLine();
  writer.indent(() => {
    for (const item of items) {
      writeLiteral(writer, item);
      writer.write(',').newLine();
    }
  });
  writer.write(']');
}

function writeObject(writer: CodeBlockWriter, record: Record<string, unknown>): void {
  const keys = Object.keys(record).filter((k) => record[k] !== undefined);
  if (keys.length === 0) return void writer.write('{}');
  writer.write('{').newLine();
  writer.indent(() => {
    for (const key of keys) {
      writer.write(`${propertyName(key)}: `);
      writeLiteral(writer, record[key]);
      writer.write(',').newLine();
    }
  });
  writer.write('}');
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
