/**
 * Filtered Static results in the format of the source: JSON in the paging envelope (done by the
 * handler), XML as `<root><item>…</item></root>` with one child element per field, CSV with a
 * header line of the returned fields (RFC 4180 quoting, null as an empty field).
 */
import { createRequire } from 'node:module';
import type { XMLBuilder } from 'fast-xml-parser';
import type { StaticDataset, StaticRow } from '../contract/static-content.js';

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(rows: readonly StaticRow[], columns: readonly string[]): string {
  const lines = [columns.map(csvField).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvField(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const require = createRequire(import.meta.url);
let builder: XMLBuilder | null = null;
/** Required on first use: a gateway without XML Static endpoints never loads fast-xml-parser. */
function xmlBuilder(): XMLBuilder {
  const { XMLBuilder: Builder } = require('fast-xml-parser') as typeof import('fast-xml-parser');
  return (builder ??= new Builder({ format: true, indentBy: '  ', suppressEmptyNode: true }));
}

export function toXml(rows: readonly StaticRow[], columns: readonly string[], dataset: StaticDataset): string {
  const items = rows.map((row) => {
    const item: Record<string, unknown> = {};
    for (const column of columns) {
      const value = row[column];
      item[column] = value === null || value === undefined ? '' : value;
    }
    return item;
  });
  const root = dataset.xmlRoot ?? 'items';
  const item = dataset.xmlItem ?? 'item';
  const body = xmlBuilder().build({ [root]: { [item]: items } }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${items.length === 0 ? `<${root}></${root}>\n` : body}`;
}
