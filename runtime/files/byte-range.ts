/**
 * Conditional and partial GETs over a file of known size and modification time (RFC 9110 §13,
 * §14): a strong validator, If-None-Match / If-Modified-Since -> 304, one `Range` -> 206, an
 * unsatisfiable range -> 416, If-Range that does not match (a tag, or exactly the Last-Modified date)
 * -> the whole file.
 */
import { ifNoneMatchHits } from '../cache/etag.js';

export interface FileVersion {
  readonly size: number;
  readonly mtimeMs: number;
}

export type RangeDecision =
  | { readonly kind: 'not-modified' }
  | { readonly kind: 'full' }
  | { readonly kind: 'partial'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

export function etagFor(version: FileVersion): string {
  return `"${version.size.toString(16)}-${Math.trunc(version.mtimeMs).toString(16)}"`;
}

export function lastModifiedFor(version: FileVersion): string {
  return new Date(version.mtimeMs).toUTCString();
}

/** One `bytes=` range; null when the header is absent, malformed or asks for several ranges (then serve all). */
export function parseRange(header: string | undefined, size: number): RangeDecision | null {
  if (header === undefined) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [first, last] = [match[1]!, match[2]!];
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null; // invalid: ignored (RFC 9110 §14.1.1)
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

function ifRangeMatches(ifRange: string | undefined, etag: string, version: FileVersion): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  // a date validates only when it is exactly the Last-Modified sent (RFC 9110 §13.1.5): a later
  // date (the response's Date, a clock) would splice bytes of a file replaced since into the copy
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.trunc(version.mtimeMs / 1000) * 1000 === date;
}

export interface ConditionalHeaders {
  readonly ifNoneMatch?: string | undefined;
  readonly ifModifiedSince?: string | undefined;
  readonly range?: string | undefined;
  readonly ifRange?: string | undefined;
}

export function decideRange(headers: ConditionalHeaders, version: FileVersion): RangeDecision {
  const etag = etagFor(version);
  if (headers.ifNoneMatch !== undefined) {
    if (ifNoneMatchHits(headers.ifNoneMatch, etag)) return { kind: 'not-modified' };
  } else if (headers.ifModifiedSince !== undefined) {
    const since = Date.parse(headers.ifModifiedSince);
    if (!Number.isNaN(since) && Math.trunc(version.mtimeMs / 1000) * 1000 <= since) return { kind: 'not-modified' };
  }
  if (!ifRangeMatches(headers.ifRange, etag, version)) return { kind: 'full' };
  return parseRange(headers.range, version.size) ?? { kind: 'full' };
}
