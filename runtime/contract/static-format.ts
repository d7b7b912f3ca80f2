/**
 * Which parsed format a Static endpoint's Content-Type has (JSON, XML or CSV can be filtered).
 * A module of its own, without the parsers: the runtime's request path needs only this, and loads
 * the parsers (static-content.ts: csv-parse, fast-xml-parser) when it first reads a content file.
 */
export type StaticFormat = 'json' | 'xml' | 'csv';

/** The filterable format of a media type, null for content that is only served raw. */
export function staticFormatOf(contentType: string): StaticFormat | null {
  const base = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (/^(application|text)\/([a-z0-9.+-]*\+)?json$/.test(base)) return 'json';
  if (/^(application|text)\/([a-z0-9.+-]*\+)?xml$/.test(base)) return 'xml';
  if (base === 'text/csv' || base === 'application/csv') return 'csv';
  return null;
}
