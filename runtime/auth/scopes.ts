/**
 * What a token may do, parsed once per token (not per request) from its two comma lists.
 *
 * allowed_scopes items:
 *   `*`      everything
 *   `read`   GET, HEAD, QUERY, OPTIONS   (method scopes)
 *   `write`  POST, PUT, PATCH, MERGE, DELETE
 *   anything else is an endpoint pattern, case-insensitive, `*` = any characters (also `/`):
 *   `Products`, `Inventory/Products`, `Inventory/*`, `Prod*`.
 * A request is allowed when the method scopes allow the method (no method scope = any method)
 * AND the patterns allow the endpoint (no pattern = any endpoint). An empty list allows nothing.
 *
 * allowed_environments: `*` or a comma list of names (case-insensitive; `prefix*` allowed).
 */

export const READ_METHODS: readonly string[] = ['GET', 'HEAD', 'QUERY', 'OPTIONS'];
export const WRITE_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'MERGE', 'DELETE'];

export interface ScopeSet {
  readonly all: boolean;
  /** Upper-case methods allowed by `read`/`write`; null when the list has no method scope. */
  readonly methods: ReadonlySet<string> | null;
  /** Compiled endpoint patterns; null when the list has none. */
  readonly patterns: readonly RegExp[] | null;
  readonly empty: boolean;
}

export interface EnvironmentSet {
  readonly all: boolean;
  readonly patterns: readonly RegExp[];
}

/** The names an endpoint answers to in patterns. */
export interface EndpointIdentity {
  readonly name: string;
  readonly namespace: string | null;
  /** Path below /api/{env}/, e.g. `Inventory/Products` or `files/Docs/Reports`. */
  readonly routePath: string;
}

export function splitList(list: string): string[] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

export function parseScopes(list: string): ScopeSet {
  const items = splitList(list);
  if (items.includes('*')) return { all: true, methods: null, patterns: null, empty: false };
  let methods: Set<string> | null = null;
  let patterns: RegExp[] | null = null;
  for (const item of items) {
    const lower = item.toLowerCase();
    if (lower === 'read' || lower === 'write') {
      methods ??= new Set();
      for (const method of lower === 'read' ? READ_METHODS : WRITE_METHODS) methods.add(method);
    } else {
      (patterns ??= []).push(globToRegExp(item));
    }
  }
  return { all: false, methods, patterns, empty: items.length === 0 };
}

export function parseEnvironments(list: string): EnvironmentSet {
  const items = splitList(list);
  if (items.includes('*')) return { all: true, patterns: [] };
  return { all: false, patterns: items.map(globToRegExp) };
}

/**
 * Items of an allowed_environments list that name no known environment (`*` always does; a
 * `prefix*` item does when it matches at least one). Empty when every item is known.
 */
export function unknownEnvironments(list: string, known: readonly string[]): string[] {
  return splitList(list).filter((item) => item !== '*' && !known.some((name) => globToRegExp(item).test(name)));
}

export function scopeAllowsMethod(scopes: ScopeSet, method: string): boolean {
  if (scopes.all) return true;
  if (scopes.empty) return false;
  return scopes.methods === null || scopes.methods.has(method.toUpperCase());
}

export function scopeAllowsEndpoint(scopes: ScopeSet, endpoint: EndpointIdentity): boolean {
  if (scopes.all) return true;
  if (scopes.empty) return false;
  if (scopes.patterns === null) return true;
  const candidates = [endpoint.name, endpoint.routePath];
  if (endpoint.namespace !== null) candidates.push(`${endpoint.namespace}/${endpoint.name}`);
  return scopes.patterns.some((pattern) => candidates.some((candidate) => pattern.test(candidate)));
}

export function environmentAllowed(environments: EnvironmentSet, env: string): boolean {
  return environments.all || environments.patterns.some((pattern) => pattern.test(env));
}
