/**
 * The cache key of a read: everything that can change the response.
 * Environment (lower case), endpoint id, method (HEAD = GET; QUERY on its own), path, the query
 * string's pairs as received in canonical order, the build (sourceHash of generated/: a reload or
 * deploy that changes any endpoint never replays responses of the old definition), the QUERY body
 * as canonical JSON (so different queries never share an entry and key order does not matter; a
 * Proxy's as sent), the Accept header and, on a Proxy, the Origin header. Hashed (SHA-256) to a fixed size.
 */
import { createHash } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import { queryPairName } from '../routing/query-pair-name.js';

export interface CacheKeyInput {
  readonly env: string;
  readonly endpointId: string;
  readonly method: string;
  /** Request path without the query string, as received. */
  readonly path: string;
  /** Raw query string without `?` ('' when none). */
  readonly query: string;
  /** QUERY body as its reader takes it (parsed for SQL and Static, the text as sent for a Proxy); undefined for GET. */
  readonly body?: unknown;
  readonly accept?: string | undefined;
  /** The Origin header of a Proxy request (forwarded upstream, which may answer per origin with `Vary: Origin`). */
  readonly origin?: string | undefined;
  /** sourceHash of the route table serving the request. */
  readonly build?: string;
}

/**
 * The `&`-separated pairs exactly as received, sorted by name. Never decoded or re-encoded: two
 * spellings a reader may take differently (`%24top` and `$top`, `??x` and `?x`, invalid UTF-8 and
 * U+FFFD) must never share an entry. Stable, and names that may be one name to some reader
 * (`Top`, `top`, `%74op`) compare equal, so such pairs keep their order (first-wins readers).
 * A query with a `;` is not reordered at all.
 */
export function canonicalQuery(query: string): string {
  // readers that split pairs on `;` too (Rack before 3, Python before 3.9.2) see other pairs, in
  // another order, than these `&`-separated ones (parameter cloaking): such a query is kept as received
  if (query.includes(';')) return query;
  const pairs = query.split('&').map((pair) => [queryPairName(pair), pair] as const);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return pairs.map(([, pair]) => pair).join('&');
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
    input.origin ?? '',
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
