/**
 * Where the OData options of a read come from: the query string (GET) or the JSON body (QUERY,
 * spec fields select/filter/orderby/top/skip). Both end up as the same RawOptions.
 */
import { ODataError } from './odata/errors.js';
import { readRawOptions, type RawOptions } from './odata/options.js';

const BODY_FIELDS = ['select', 'filter', 'orderby', 'top', 'skip', 'apply'] as const;

export function optionsFromQueryString(query: Readonly<Record<string, unknown>>): RawOptions {
  return readRawOptions(query);
}

export function optionsFromQueryBody(body: unknown, query: Readonly<Record<string, unknown>>): RawOptions {
  if (Object.keys(query).some((k) => k.startsWith('$'))) {
    throw new ODataError('QUERY takes its options from the JSON body, not from the query string');
  }
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ODataError('QUERY body must be a JSON object');
  const record = body as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    const field = key.startsWith('$') ? key.slice(1) : key;
    if (!(BODY_FIELDS as readonly string[]).includes(field)) {
      throw new ODataError(`QUERY body: unknown field '${key.slice(0, 40)}'`);
    }
    if (value === null || value === undefined) continue;
    if (field === 'top' || field === 'skip') {
      // JSON has numbers: "5" (a string) is refused like 5.5, not read as 5
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new ODataError(`QUERY body: ${field} must be an integer`);
      out[field] = String(value);
    } else {
      if (typeof value !== 'string') throw new ODataError(`QUERY body: ${field} must be a string`);
      out[field] = value;
    }
  }
  return out;
}
