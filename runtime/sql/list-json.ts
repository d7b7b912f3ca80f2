/**
 * The JSON text of a list read's envelope (`{success, count, value, nextLink}`), written without
 * JSON.stringify's generic walk over every row: each row is written by a writer made once per
 * list of column names (its `"name":` prefixes escaped once), each value by its JavaScript type.
 * The text is byte-for-byte what JSON.stringify(body) gives (list-json.test.ts holds that for every
 * kind of value the drivers and transforms produce); anything it does not write itself (a value
 * JSON.stringify would leave out or refuse: undefined, a function, a symbol, a bigint, an object
 * whose toJSON gives undefined) makes it answer undefined, and the caller sends the object for
 * fastify's JSON.stringify, as before.
 * The rows of one result share their column names, in one order (the drivers make every row of a
 * result from the same field list; RowFilter columns, keyset values and transforms add, remove or
 * rename the same names in every row): the first row's names are taken for all of them.
 */
import type { Row } from './drivers/driver.js';

/** The envelope of a list read (handler.ts listResponse). */
export interface ListEnvelope {
  readonly success: true;
  readonly count: number;
  readonly value: readonly Row[];
  readonly nextLink: string | null;
}

const quote = JSON.stringify as (value: unknown) => string | undefined;

/** A value as JSON.stringify writes it as an object member, or undefined where that is left to JSON.stringify. */
export function valueJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      // null; nested rows and arrays ($expand, json columns), Dates and Buffers (their toJSON)
      return value === null ? 'null' : quote(value);
    default:
      return undefined;
  }
}

type RowWriter = (row: Row) => string | undefined;

/** A writer of the rows that have `names`, in that order. */
function rowWriter(names: readonly string[]): RowWriter {
  const prefixes = names.map((name, i) => `${i === 0 ? '{' : ','}${quote(name)}:`);
  const count = names.length;
  if (count === 0) return () => '{}';
  return (row) => {
    let text = '';
    for (let i = 0; i < count; i++) {
      const json = valueJson(row[names[i]!]);
      if (json === undefined) return undefined;
      text += prefixes[i]! + json;
    }
    return `${text}}`;
  };
}

/** Row writers by their column names (joined by NUL); at most MAX_WRITERS, then started afresh. */
const writers = new Map<string, RowWriter>();
const MAX_WRITERS = 512;

/** How many row writers were made (a structural count for tests: once per list of column names). */
export let rowWritersMade = 0;

function writerFor(row: Row): RowWriter {
  const names = Object.keys(row);
  const key = names.join('\u0000');
  let writer = writers.get(key);
  if (writer === undefined) {
    if (writers.size >= MAX_WRITERS) writers.clear();
    writer = rowWriter(names);
    writers.set(key, writer);
    rowWritersMade += 1;
  }
  return writer;
}

/** JSON.stringify(body) for a list envelope, or undefined when a value must be left to JSON.stringify. */
export function listEnvelopeJson(body: ListEnvelope): string | undefined {
  const rows = body.value;
  const nextLink = valueJson(body.nextLink);
  if (nextLink === undefined) return undefined;
  let value = '';
  if (rows.length > 0) {
    const first = rows[0]!;
    if (typeof first !== 'object' || first === null || Array.isArray(first)) return undefined;
    const write = writerFor(first);
    for (let i = 0; i < rows.length; i++) {
      const json = write(rows[i]!);
      if (json === undefined) return undefined;
      value += i === 0 ? json : `,${json}`;
    }
  }
  return `{"success":${body.success ? 'true' : 'false'},"count":${valueJson(body.count) ?? 'null'},"value":[${value}],"nextLink":${nextLink}}`;
}
