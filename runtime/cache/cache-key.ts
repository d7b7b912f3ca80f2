/**
 * The cache key of a read: everything that can change the response.
 * Environment (lower case), endpoint id, method (HEAD = GET; QUERY on its own), path, the query
 * string in canonical order, the build (sourceHash of generated/: a reload or deploy that changes
 * any endpoint never replays responses of the old definition), the QUERY body as canonical JSON (so different queries never share
 * an entry and key order does not matter) and the Accept header. Hashed (SHA-256) to a fixed size.
 */
import { createHash } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';

export interface CacheKeyInput {
  readonly env: string;
  readonly endpointId: string;
  readonly method: string;
  /** Request path without the query string, as received. */
  readonly path: string;
  /** Raw query string without `?` ('' when none). */
  readonly query: string;
  /** Parsed QUERY body; undefined for GET. */
  readonly body?: unknown;
  readonly accept?: string | undefined;
  /** sourceHash of the route table serving the request. */
  readonly build?: string;
}

/** Parameters sorted by name (stable: repeated names keep their order), re-encoded uniformly. */
export function canonicalQuery(query: string): string {
  const params = [...new URLSearchParams(query)];
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new URLSearchParams(params).toString();
}

export function cacheKeyHash(input: CacheKeyInput): string {
  const method = input.method.toUpperCase() === 'HEAD' ? 'GET' : input.method.toUpperCase();
  const parts = [
    input.env.toLowerCase(),
    input.endpointId,
    method,
    input.path,
    canonicalQuery(input.query),
    input.body === undefined ? '' : stableStringify(input.body),
    input.accept ?? '',
    input.build ?? '',
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
