/**
 * The upstream URL of one attempt: the configured base (`Url` or a fallback URL) + the sub-path
 * below the endpoint + the client's query string. Parameters baked into the base URL are kept and
 * win on collision, in any spelling an upstream might read as the same name: names compare
 * decoded, trimmed and case-insensitively, and a client pair holding `;` (which some servers split
 * on, `x=1;fixed=2`) is dropped when any of its parts names a baked parameter. A DELETE with one id segment follows the endpoint's first DeletePattern.
 * Segments arrive decoded and checked (routing/api-path.ts refuses `.`, `..`, encoded `/`); each is
 * percent-encoded again, so an id or sub-path can never climb above the base URL's path.
 */
import type { DeletePattern } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';
import type { RouteTarget } from '../routing/route-table.js';
import { memoByText } from '../lifecycle/text-memo.js';
import { queryPairName } from '../routing/query-pair-name.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TargetRequest {
  readonly method: string;
  readonly target: RouteTarget;
  /** Raw query string of the client request without `?` ('' when none). */
  readonly query: string;
  readonly deletePatterns: readonly DeletePattern[];
}

function segmentsOf(target: RouteTarget): readonly string[] {
  return target.kind === 'collection' ? [] : target.kind === 'item' ? [target.id] : target.segments;
}

function appendPath(url: URL, suffix: string): void {
  url.pathname = url.pathname.replace(/\/+$/, '') + suffix;
}

/** The names a client pair may set: its own, and those of its `;`-separated parts (decoded too). */
function namesOf(pair: string): string[] {
  let decoded = pair;
  try {
    decoded = decodeURIComponent(pair);
  } catch {
    decoded = pair;
  }
  return [queryPairName(pair), ...decoded.split(';').map(queryPairName)];
}

/**
 * Merges the client's query into the base URL's, keeping every pair byte for byte (OData's
 * `$filter=Name eq 'x'` must not be re-encoded); the base's parameter names (and a DELETE id
 * parameter) win on collision.
 */
function mergeQuery(url: URL, clientQuery: string, extra: readonly [string, string][]): void {
  const bakedPairs = url.search.slice(1).split('&').filter((pair) => pair !== '');
  const baked = new Set(bakedPairs.map(queryPairName));
  const pairs = [...bakedPairs];
  for (const [name, value] of extra) {
    if (baked.has(name.trim().toLowerCase())) continue;
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
    baked.add(name.trim().toLowerCase()); // the DELETE id parameter is fixed as well
  }
  for (const pair of clientQuery.split('&')) {
    if (pair !== '' && !namesOf(pair).some((name) => baked.has(name))) pairs.push(pair);
  }
  url.search = pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function deleteUrl(url: URL, id: string, pattern: DeletePattern): [string, string][] {
  const encoded = encodeURIComponent(id);
  switch (pattern.style) {
    case 'QueryParameter':
      return [[pattern.parameter ?? 'id', id]];
    case 'ODataGuid':
      if (!GUID.test(id)) throw new WharfError('PROXY_INVALID_GUID', { id });
      appendPath(url, `(guid'${id.toLowerCase()}')`);
      return [];
    case 'ODataKey':
      appendPath(url, `(${encoded.replace(/'/g, '%27')})`);
      return [];
    case 'PathParameter':
      appendPath(url, `/${encoded}`);
      return [];
  }
}

/**
 * The URL of a request to the collection without a query (the usual proxied GET): it depends on the
 * base alone, so it is parsed once per base (at most 64) and shared. The URLs targetUrl returns are
 * read, never changed.
 */
const plainUrl = memoByText((base) => {
  const url = build(base, { method: 'GET', target: { kind: 'collection' }, query: '', deletePatterns: [] });
  sharedParts.set(url, { origin: url.origin, path: url.pathname + url.search });
  return url;
}, 64);

/** What an attempt reads of its URL: the origin (the agent's pool, the circuit) and the path with the query. */
export interface UrlParts {
  readonly origin: string;
  readonly path: string;
}

/** The parts of the shared URLs, made with them (URL's getters build a new string on every read). */
const sharedParts = new WeakMap<URL, UrlParts>();

export function partsOf(url: URL): UrlParts {
  return sharedParts.get(url) ?? { origin: url.origin, path: url.pathname + url.search };
}

export function targetUrl(base: string, request: TargetRequest): URL {
  if (request.query === '' && request.target.kind === 'collection') return plainUrl(base);
  return build(base, request);
}

function build(base: string, request: TargetRequest): URL {
  const url = new URL(base);
  const segments = segmentsOf(request.target);
  let extra: [string, string][] = [];
  if (request.method === 'DELETE' && request.target.kind === 'item') {
    const pattern = request.deletePatterns[0] ?? { style: 'PathParameter', parameter: null };
    extra = deleteUrl(url, request.target.id, pattern);
  } else if (segments.length > 0) {
    appendPath(url, '/' + segments.map(encodeURIComponent).join('/'));
  }
  mergeQuery(url, request.query, extra);
  return url;
}
