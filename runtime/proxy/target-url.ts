/**
 * The upstream URL of one attempt: the configured base (`Url` or a fallback URL) + the sub-path
 * below the endpoint + the client's query string. Parameters baked into the base URL are kept and
 * win on collision. A DELETE with one id segment follows the endpoint's first DeletePattern.
 * Segments arrive decoded and checked (routing/api-path.ts refuses `.`, `..`, encoded `/`); each is
 * percent-encoded again, so an id or sub-path can never climb above the base URL's path.
 */
import type { DeletePattern } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';
import type { RouteTarget } from '../routing/route-table.js';

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

function nameOf(pair: string): string {
  const raw = pair.split('=')[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * Merges the client's query into the base URL's, keeping every pair byte for byte (OData's
 * `$filter=Name eq 'x'` must not be re-encoded); the base's parameter names win on collision.
 */
function mergeQuery(url: URL, clientQuery: string, extra: readonly [string, string][]): void {
  const bakedPairs = url.search.slice(1).split('&').filter((pair) => pair !== '');
  const baked = new Set(bakedPairs.map(nameOf));
  const pairs = [...bakedPairs];
  for (const [name, value] of extra) {
    if (!baked.has(name)) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  for (const pair of clientQuery.split('&')) {
    if (pair !== '' && !baked.has(nameOf(pair))) pairs.push(pair);
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

export function targetUrl(base: string, request: TargetRequest): URL {
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
