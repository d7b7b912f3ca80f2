/**
 * How PostgreSQL values become JSON, identically for `pg` and PGlite:
 * - int8 (bigint, count(*)): a number when it is a safe integer, else the decimal string;
 * - numeric/decimal: a number (the demo and most money columns fit a double exactly; the text
 *   is kept as a string when Number() would lose digits);
 * - date: `YYYY-MM-DD`; time: as returned; timestamp (no zone): `YYYY-MM-DDTHH:MM:SS[.fff]`;
 * - timestamptz: ISO 8601 in UTC with milliseconds (`2024-01-01T00:37:00.000Z`);
 * - json/jsonb: parsed (needed for $expand).
 */
export const PG_OID = {
  INT8: 20,
  NUMERIC: 1700,
  DATE: 1082,
  TIME: 1083,
  TIMESTAMP: 1114,
  TIMESTAMPTZ: 1184,
} as const;

export function parseInt8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

export function parseNumeric(text: string): number | string {
  const n = Number(text);
  // 15 characters hold at most 15 digits, which always round-trip: the common case, no scan
  if (text.length <= 15 && Number.isFinite(n)) return n;
  if (!Number.isFinite(n)) return text;
  // Keep the text when a round trip would change digits (more than ~15 significant digits).
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length > 15 ? text : n;
}

export function parseTimestamp(text: string): string {
  return text.replace(' ', 'T');
}

/**
 * `YYYY-MM-DD HH:MM:SS[.ffffff]+00` (a session in UTC, the common case) rendered without a Date:
 * the same text toISOString() gives (milliseconds truncated, as Date parsing truncates them).
 */
function utcTimestamp(text: string): string | null {
  const length = text.length;
  if (length < 22 || length > 29 || text.charCodeAt(length - 3) !== 43 /* + */ || text.charCodeAt(length - 2) !== 48 || text.charCodeAt(length - 1) !== 48) return null;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== ' ' || text[13] !== ':' || text[16] !== ':') return null;
  if (length === 22) return `${text.slice(0, 10)}T${text.slice(11, 19)}.000Z`;
  if (text[19] !== '.' || length === 23) return null;
  const fraction = text.slice(20, length - 3);
  const ms = fraction.length >= 3 ? fraction.slice(0, 3) : fraction.length === 2 ? `${fraction}0` : `${fraction}00`;
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
}

export function parseTimestamptz(text: string): string {
  const utc = utcTimestamp(text);
  if (utc !== null) return utc;
  // `2024-01-01 00:37:00+00`, `...00.123+05:30`, `...+05:30:15` (historic zones)
  let iso = text.replace(' ', 'T');
  iso = iso.replace(/([+-]\d{2})$/, '$1:00').replace(/([+-]\d{2}:\d{2}):\d{2}$/, '$1');
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? text : d.toISOString();
}

const identity = (text: string): string => text;

/** OID -> parser from the text format, shared by both drivers. */
export const PG_TEXT_PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  [PG_OID.INT8]: parseInt8,
  [PG_OID.NUMERIC]: parseNumeric,
  [PG_OID.DATE]: identity,
  [PG_OID.TIME]: identity,
  [PG_OID.TIMESTAMP]: parseTimestamp,
  [PG_OID.TIMESTAMPTZ]: parseTimestamptz,
};
