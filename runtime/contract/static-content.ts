/**
 * What Static content may look like, shared by the compiler (build-time check with positions) and
 * the runtime (the rows OData filters). Pure: text in, rows or a positioned error out.
 *   JSON: the root array, or else the first top-level property (in file order) holding an array;
 *         every item must be an object.
 *   XML:  the repeating element is the child element of the root that occurs most often (first
 *         on a tie); each occurrence is one row of its attributes and child elements (text).
 *   CSV:  the first line is the header; a column is a number when every non-empty value is a
 *         decimal number, a boolean when every one is true/false, else a string; empty = null.
 *         XML values are typed by the same rule.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { jsonErrorOffset, lineColumnAt, withoutJsonExcerpt } from './json-error-position.js';
import type { StaticFormat } from './static-format.js';
import { escapeUnprintable } from './unprintable.js';

export { staticFormatOf, type StaticFormat } from './static-format.js';

export type StaticRow = Record<string, unknown>;

export interface StaticDataset {
  readonly format: StaticFormat;
  readonly rows: readonly StaticRow[];
  /** Every field name, in first-seen order. */
  readonly columns: readonly string[];
  /** JSON: the property holding the array, null for a root array. */
  readonly wrapperKey: string | null;
  /** XML: names of the root and the repeating element. */
  readonly xmlRoot: string | null;
  readonly xmlItem: string | null;
}

export interface StaticContentError {
  readonly message: string;
  /** 1-based; null when the parser gives no position. */
  readonly line: number | null;
  readonly column: number | null;
}

export type StaticParseResult = { readonly ok: true; readonly dataset: StaticDataset } | { readonly ok: false; readonly error: StaticContentError };

/** At most `max` characters of `text` from `offset`, escaped and quoted: `"\uFFFDPNG\r\n\u001a…"`. */
export function contentExcerpt(text: string, offset = 0, max = 16): string {
  const part = [...text.slice(offset, offset + max * 2)].slice(0, max).join('');
  return `"${escapeUnprintable(part).replace(/"/g, '\\"')}${offset + part.length < text.length ? '…' : ''}"`;
}

function fail(message: string, line: number | null = null, column: number | null = null): StaticParseResult {
  return { ok: false, error: { message: escapeUnprintable(message), line, column } };
}

function columnsOf(rows: readonly StaticRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

function dataset(format: StaticFormat, rows: StaticRow[], extra: Partial<StaticDataset> = {}): StaticParseResult {
  return {
    ok: true,
    dataset: { format, rows, columns: columnsOf(rows), wrapperKey: null, xmlRoot: null, xmlItem: null, ...extra },
  };
}

function isRecord(value: unknown): value is StaticRow {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): StaticParseResult {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    // V8 quotes the text itself (`Unexpected token 'o', "notjson" is not valid JSON`): dropped, the
    // position says where
    const message = (error as Error).message;
    const what = withoutJsonExcerpt(message).replace(/\s+(?:in JSON )?at position \d+.*$/s, '');
    const offset = jsonErrorOffset(text, message);
    if (offset === null) return fail(`invalid JSON: ${what} (the file starts ${contentExcerpt(text)})`);
    const { line, column } = lineColumnAt(text, offset);
    return fail(`invalid JSON: ${what}`, line, column);
  }
  let items: unknown;
  let wrapperKey: string | null = null;
  if (Array.isArray(root)) items = root;
  else if (isRecord(root)) {
    wrapperKey = Object.keys(root).find((key) => Array.isArray(root[key])) ?? null;
    if (wrapperKey === null) return fail('JSON content has no array of records (neither at the root nor under a top-level property)');
    items = root[wrapperKey];
  } else return fail('JSON content must be an array of records or an object holding one');
  const rows = items as unknown[];
  const bad = rows.findIndex((item) => !isRecord(item));
  if (bad >= 0) return fail(`JSON record ${bad + 1}${wrapperKey ? ` of '${wrapperKey}'` : ''} is not an object`);
  return dataset('json', rows as StaticRow[], { wrapperKey });
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const BOOLEAN = /^(true|false)$/i;

/** Types string columns in place (CSV and XML): number, boolean, or string; '' becomes null. */
function typeColumns(rows: StaticRow[], columns: readonly string[]): void {
  for (const column of columns) {
    const values = rows.map((row) => row[column]).filter((v): v is string => typeof v === 'string' && v !== '');
    const kind = values.length > 0 && values.every((v) => NUMBER.test(v)) ? 'number' : values.length > 0 && values.every((v) => BOOLEAN.test(v)) ? 'boolean' : 'string';
    for (const row of rows) {
      const v = row[column];
      if (v === undefined) continue;
      if (v === '' || v === null) row[column] = null;
      else if (kind === 'number') row[column] = Number(v);
      else if (kind === 'boolean') row[column] = String(v).toLowerCase() === 'true';
    }
  }
}

function parseCsvText(text: string): StaticParseResult {
  let rows: StaticRow[];
  try {
    rows = parseCsv(text, { columns: true, skip_empty_lines: true, bom: true }) as StaticRow[];
  } catch (error) {
    const e = error as Error & { lines?: number };
    return fail(`invalid CSV: ${e.message}`, e.lines ?? null, null);
  }
  const result = dataset('csv', rows);
  if (result.ok) typeColumns(rows, result.dataset.columns);
  return result;
}

function xmlText(value: unknown): unknown {
  if (isRecord(value)) return '#text' in value ? xmlText(value['#text']) : null;
  if (Array.isArray(value)) return xmlText(value[0]);
  return value === undefined ? null : String(value);
}

function parseXml(text: string): StaticParseResult {
  const valid = XMLValidator.validate(text);
  if (valid !== true) return fail(`invalid XML: ${valid.err.msg}`, valid.err.line, valid.err.col);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    isArray: (_name, jpath) => String(jpath).split('.').length === 2,
  });
  const document = parser.parse(text) as Record<string, unknown>;
  const xmlRoot = Object.keys(document).find((key) => !key.startsWith('?'));
  const root = xmlRoot === undefined ? undefined : document[xmlRoot];
  if (xmlRoot === undefined || !isRecord(root)) return fail('XML content has no repeating element under its root');
  let xmlItem: string | null = null;
  for (const [key, value] of Object.entries(root)) {
    if (!Array.isArray(value)) continue;
    if (xmlItem === null || value.length > (root[xmlItem] as unknown[]).length) xmlItem = key;
  }
  if (xmlItem === null) return fail('XML content has no repeating element under its root');
  const rows = (root[xmlItem] as unknown[]).map((item) => {
    const row: StaticRow = {};
    if (isRecord(item)) for (const [key, value] of Object.entries(item)) if (key !== '#text') row[key] = xmlText(value);
    return row;
  });
  const result = dataset('xml', rows, { xmlRoot, xmlItem });
  if (result.ok) typeColumns(rows, result.dataset.columns);
  return result;
}

export function parseStaticContent(text: string, format: StaticFormat): StaticParseResult {
  if (text.includes('\u0000')) {
    return fail(`the file looks binary, not ${format.toUpperCase()} (it starts ${contentExcerpt(text)})`);
  }
  switch (format) {
    case 'json':
      return parseJson(text);
    case 'csv':
      return parseCsvText(text);
    case 'xml':
      return parseXml(text);
  }
}
