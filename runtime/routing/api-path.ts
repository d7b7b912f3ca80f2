/**
 * Splits a request target `/api/{env}/{...segments}?query` into percent-decoded segments.
 * Rejects what could smuggle a different path: empty segments (`//`), `.` and `..`, encoded `/` or
 * `\`, control characters, malformed percent-encoding. One trailing slash is ignored.
 */
import { WharfError } from '../errors/wharf-error.js';

export interface ApiPath {
  /** The environment segment, null for `/api` and `/api/`. */
  readonly env: string | null;
  /** Decoded segments after the environment. */
  readonly segments: readonly string[];
}

export const API_PREFIX = '/api';

function invalid(reason: string): WharfError {
  return new WharfError('ROUTING_INVALID_PATH_SEGMENT', { reason });
}

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[/\\\u0000-\u001f\u007f]/;

export function decodeSegment(raw: string): string {
  if (raw === '') throw invalid("empty segment ('//') in the path.");
  let decoded = raw; // without a '%' there is nothing to decode
  if (raw.includes('%')) {
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      throw invalid(`malformed percent-encoding in '${raw}'.`);
    }
  }
  if (decoded === '.' || decoded === '..') throw invalid(`'${raw}' is not allowed.`);
  if (decoded === '') throw invalid(`'${raw}' decodes to an empty segment.`);
  if (FORBIDDEN.test(decoded)) throw invalid(`'${raw}' contains an encoded '/', '\\' or a control character.`);
  return decoded;
}

/** `url` is the raw request target (fastify `request.url`); it must start with `/api`. */
export function parseApiPath(url: string): ApiPath {
  const end = url.search(/[?#]/);
  const pathname = end === -1 ? url : url.slice(0, end);
  const rest = pathname.slice(API_PREFIX.length);
  if (rest === '' || rest === '/') return { env: null, segments: [] };
  const raw = rest.slice(1).split('/');
  if (raw.length > 1 && raw.at(-1) === '') raw.pop();
  const decoded = raw.map(decodeSegment);
  return { env: decoded[0] ?? null, segments: decoded.slice(1) };
}
