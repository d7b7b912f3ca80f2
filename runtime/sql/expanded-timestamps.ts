/**
 * One timestamp format everywhere: top-level timestamptz / datetimeoffset values come from the
 * drivers' type parsers as ISO 8601 UTC with milliseconds (`2024-01-01T00:37:00.000Z`), but the
 * database renders them itself inside $expand JSON (`2024-01-01T00:37:00+00:00` from PostgreSQL's
 * json_agg, `...+00:00` or `...Z` without milliseconds from SQL Server's FOR JSON). Expanded rows
 * are brought to the top-level format here. Only strings of exactly that shape (a date, a time, an
 * offset or Z) in expanded objects change; a date or a zone-less timestamp stays as it is, as it
 * does at the top level.
 */
type Row = Record<string, unknown>;

const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?(Z|[+-]\d{2}:\d{2})$/;

export function isoUtc(value: string): string {
  if (!WITH_OFFSET.test(value)) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

function normalizeObject(row: Row): Row {
  for (const [key, value] of Object.entries(row)) if (typeof value === 'string') row[key] = isoUtc(value);
  return row;
}

/** In place, for the expanded columns `names` of every row. */
export function normalizeExpandedTimestamps(rows: readonly Row[], names: readonly string[]): void {
  for (const row of rows) {
    for (const name of names) {
      const value = row[name];
      if (Array.isArray(value)) {
        for (const item of value) if (item && typeof item === 'object') normalizeObject(item as Row);
      } else if (value && typeof value === 'object') {
        normalizeObject(value as Row);
      }
    }
  }
}
