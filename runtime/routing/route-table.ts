/**
 * The immutable route table: lower-cased route key (route path or alias, from the route modules'
 * routeKeys) -> endpoint. Resolution tries the longest prefix of the path segments first, then
 * shorter ones (namespaced before the legacy non-namespaced endpoint); the remainder after the
 * matched prefix is the target: none = collection, one = id, more = sub-path (proxy only, or as many
 * as a table-valued function has Path parameters).
 */
import { WharfError } from '../errors/wharf-error.js';
import type { LoadedEndpoint, LoadedGenerated } from '../load/loaded-endpoint.js';
import type { OpenApiDocument } from '../load/openapi-document.js';

export type RouteTarget =
  | { readonly kind: 'collection' }
  | { readonly kind: 'item'; readonly id: string }
  | { readonly kind: 'subpath'; readonly segments: readonly string[] };

export interface RouteMatch {
  readonly endpoint: LoadedEndpoint;
  /** The matched route key (lower case). */
  readonly routeKey: string;
  readonly target: RouteTarget;
}

/** How many segments may follow the endpoint path. */
export function remainderLimit(endpoint: LoadedEndpoint): number {
  switch (endpoint.kind) {
    case 'proxy':
      return Number.POSITIVE_INFINITY;
    case 'sql': {
      const pathParameters = endpoint.model.functionParameters.filter((p) => p.source === 'Path').length;
      return Math.max(1, pathParameters);
    }
    default:
      return 1;
  }
}

function targetOf(remainder: readonly string[]): RouteTarget {
  if (remainder.length === 0) return { kind: 'collection' };
  if (remainder.length === 1) return { kind: 'item', id: remainder[0]! };
  return { kind: 'subpath', segments: remainder };
}

export class RouteTable {
  readonly sourceHash: string;
  readonly endpoints: readonly LoadedEndpoint[];
  /** generated/openapi.json of the same build, null when absent. */
  readonly openapi: OpenApiDocument | null;
  readonly #byKey: ReadonlyMap<string, LoadedEndpoint>;
  readonly #byId: ReadonlyMap<string, LoadedEndpoint>;
  readonly #longestKey: number;

  private constructor(loaded: LoadedGenerated, byKey: Map<string, LoadedEndpoint>) {
    this.sourceHash = loaded.sourceHash;
    this.endpoints = Object.freeze([...loaded.endpoints]);
    this.openapi = loaded.openapi;
    this.#byKey = byKey;
    this.#byId = new Map(loaded.endpoints.map((endpoint) => [endpoint.id, endpoint]));
    this.#longestKey = Math.max(0, ...[...byKey.keys()].map((key) => key.split('/').length));
    Object.freeze(this);
  }

  static build(loaded: LoadedGenerated): RouteTable {
    const byKey = new Map<string, LoadedEndpoint>();
    for (const endpoint of loaded.endpoints) {
      for (const rawKey of endpoint.route.routeKeys) {
        const key = rawKey.toLowerCase();
        const first = byKey.get(key);
        if (first && first.id !== endpoint.id) {
          throw new WharfError('LOAD_ROUTE_KEY_CONFLICT', { key, first: first.id, second: endpoint.id });
        }
        byKey.set(key, endpoint);
      }
    }
    return new RouteTable(loaded, byKey);
  }

  static empty(): RouteTable {
    return RouteTable.build({ sourceHash: '', endpoints: [], openapi: null });
  }

  get size(): number {
    return this.#byId.size;
  }

  byId(id: string): LoadedEndpoint | undefined {
    return this.#byId.get(id);
  }

  /** null when no prefix matches, or the longest match does not take that many extra segments. */
  resolve(segments: readonly string[]): RouteMatch | null {
    const longest = Math.min(segments.length, this.#longestKey);
    // the lower-case keys of the first 1..longest segments, built once each (no slice and join per length)
    const keys: string[] = [];
    for (let i = 0; i < longest; i += 1) {
      const segment = segments[i]!.toLowerCase();
      keys.push(i === 0 ? segment : `${keys[i - 1]!}/${segment}`);
    }
    for (let length = longest; length >= 1; length--) {
      const routeKey = keys[length - 1]!;
      const endpoint = this.#byKey.get(routeKey);
      if (!endpoint) continue;
      const remainder = segments.slice(length);
      if (remainder.length > remainderLimit(endpoint)) return null;
      return { endpoint, routeKey, target: targetOf(remainder) };
    }
    return null;
  }
}
