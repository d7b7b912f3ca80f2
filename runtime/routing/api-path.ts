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
  const end = pathEnd(url);
  const rest = url.slice(API_PREFIX.length, end);
  if (rest === '' || rest === '/') return { env: null, segments: [] };
  const raw = rest.slice(1).split('/');
  let count = raw.length;
  if (count > 1 && raw[count - 1] === '') count -= 1;
  // decoded in order (the first bad segment is the one reported), the environment apart: one array
  const env = decodeSegment(raw[0]!);
  const segments: string[] = [];
  for (let i = 1; i < count; i += 1) segments.push(decodeSegment(raw[i]!));
  return { env, segments };
}

/** Where the path ends: the first `?` or `#`, else the end of the target. */
function pathEnd(url: string): number {
  const query = url.indexOf('?');
  const hash = url.indexOf('#');
  if (query === -1) return hash === -1 ? url.length : hash;
  return hash === -1 || query < hash ? query : hash;
}
