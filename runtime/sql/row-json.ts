/**
 * JSON text of SQL result rows through a serializer compiled for their columns: the column names
 * are known once a query has answered (every row of a result has the same columns, in the same
 * order), so the keys are written as constants and only the values are looked at per row.
 * The output is byte-for-byte what `JSON.stringify` gives (row-json.test.ts compares them on
 * generated rows); about three times faster on a 50-row list (docs/performance.md).
 *
 * Values: strings without characters JSON must escape are quoted as they are (the rest through
 * JSON.stringify), finite numbers as `'' + n` (JSON's own number format), NaN and Infinity as null,
 * booleans, null; anything else (objects, arrays, Dates, Buffers) through JSON.stringify, which also
 * throws for a BigInt exactly as before. A row whose columns differ from the first row's (or a value
 * that is `undefined`, which JSON leaves out) falls back to JSON.stringify for the whole result.
 */
import type { Row } from './drivers/driver.js';

type RowWriter = (row: Row, value: (v: unknown) => string) => string;

/** Characters JSON.stringify escapes in a string (controls, quote, backslash, any surrogate). */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

class Fallback extends Error {}
const FALLBACK = new Fallback();

function value(v: unknown): string {
  if (typeof v === 'string') return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
  if (typeof v === 'number') return Number.isFinite(v) ? `${v}` : 'null';
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === undefined) throw FALLBACK;
  return JSON.stringify(v);
}

/** The compiled writer of one row with these columns; keys are embedded as JSON string literals. */
function compileWriter(keys: readonly string[]): RowWriter {
  const parts = keys.map((key, i) => {
    const prefix = `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`;
    return `${JSON.stringify(prefix)} + value(row[${JSON.stringify(key)}])`;
  });
  const body = keys.length === 0 ? `return '{}';` : `return ${parts.join(' + ')} + '}';`;
  // the source holds nothing but JSON string literals of the column names (and fixed code)
  return new Function('row', 'value', body) as RowWriter;
}

/** One result's columns and their writer, kept by the caller (per compiled query). */
export class RowJson {
  private keys: readonly string[] | null = null;
  private writer: RowWriter | null = null;

  /** `[row, ...]` as JSON. */
  rows(rows: readonly Row[]): string {
    if (rows.length === 0) return '[]';
    const write = this.writerFor(rows[0]!);
    if (write === null) return JSON.stringify(rows);
    try {
      let out = `[${write(rows[0]!, value)}`;
      for (let i = 1; i < rows.length; i++) {
        const row = rows[i]!;
        if (!this.sameColumns(row)) return JSON.stringify(rows);
        out += `,${write(row, value)}`;
      }
      return `${out}]`;
    } catch (error) {
      if (error instanceof Fallback) return JSON.stringify(rows);
      throw error;
    }
  }

  /** One row as JSON. */
  row(row: Row): string {
    const write = this.writerFor(row);
    if (write === null) return JSON.stringify(row);
    try {
      return write(row, value);
    } catch (error) {
      if (error instanceof Fallback) return JSON.stringify(row);
      throw error;
    }
  }

  /** The writer for the first row's columns (compiled when they differ from the last ones seen). */
  private writerFor(first: Row): RowWriter | null {
    if (this.writer !== null && this.sameColumns(first)) return this.writer;
    const keys = Object.keys(first);
    if (keys.length > 256) return null; // very wide rows: not worth a compiled writer
    this.keys = keys;
    this.writer = compileWriter(keys);
    return this.writer;
  }

  /** Same columns as the compiled writer's, without allocating the row's key list. */
  private sameColumns(row: Row): boolean {
    const keys = this.keys!;
    let count = 0;
    for (const key in row) {
      if (key !== keys[count]) return false;
      count++;
    }
    return count === keys.length;
  }
}
