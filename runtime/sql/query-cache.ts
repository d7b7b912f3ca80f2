/**
 * Compiled read queries per endpoint model, keyed by the raw option text: a repeated request skips
 * parse, plan and compile. Keyed by the model object, so a reload (new models) starts empty.
 * Each endpoint keeps at most MAX_ENTRIES per kind (oldest evicted first). GET lists are also
 * found by their query string as received (listReadsByText). Only tables and views
 * are cached (function arguments vary per request).
 *  - list reads: the parameters are part of the cached compiled query;
 *  - reads by key: the SQL is the same for every key, so the compiled query is kept with the
 *    position of the key among its parameters, and each request puts its own key there.
 */
import type { SqlEndpoint } from '../contract/model.js';
import type { CompiledQuery, SqlCompiler } from './compile/compiler.js';
import type { ODataQuery } from './odata/ast.js';
import type { TypedValue } from './plan.js';

export interface CompiledRead {
  readonly query: ODataQuery;
  /** Encoded options for nextLink / Content-Location (links.ts optionPrefix). */
  readonly linkPrefix: string;
  readonly list: CompiledQuery;
  readonly count: CompiledQuery | null;
  /** Keyset paging: how many ordering values the rows carry, and what the next token is bound to. */
  readonly keyset?: { readonly count: number; readonly binding: string } | null;
}

export interface CompiledById {
  readonly query: ODataQuery;
  /** Compiled with a placeholder key at `keyIndex` of its parameters. */
  readonly compiled: CompiledQuery;
  readonly keyIndex: number;
}

/** The compiled query of a read by key, with this request's key in place. */
export function withKey(read: CompiledById, key: TypedValue): CompiledQuery {
  const params = read.compiled.params.slice();
  params[read.keyIndex] = key;
  return { sql: read.compiled.sql, params, jsonColumns: read.compiled.jsonColumns };
}

export const MAX_ENTRIES = 256;

/** endpoint -> compiler -> option key -> compiled read. */
class ReadCache<T> {
  readonly #caches = new WeakMap<SqlEndpoint, WeakMap<SqlCompiler, Map<string, T>>>();

  #cacheOf(endpoint: SqlEndpoint, compiler: SqlCompiler): Map<string, T> {
    let byCompiler = this.#caches.get(endpoint);
    if (!byCompiler) {
      byCompiler = new WeakMap();
      this.#caches.set(endpoint, byCompiler);
    }
    let cache = byCompiler.get(compiler);
    if (!cache) {
      cache = new Map();
      byCompiler.set(compiler, cache);
    }
    return cache;
  }

  /** The read kept under `key`, or undefined. */
  find(endpoint: SqlEndpoint, compiler: SqlCompiler, key: string): T | undefined {
    return this.#caches.get(endpoint)?.get(compiler)?.get(key);
  }

  /** Keeps `read` under `key` (evicting the oldest entry when full). */
  keep(endpoint: SqlEndpoint, compiler: SqlCompiler, key: string, read: T): void {
    const cache = this.#cacheOf(endpoint, compiler);
    if (!cache.has(key) && cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, read);
  }

  /** The read kept under `key`, or `compile()`'s, kept (evicting the oldest entry when full). */
  get(endpoint: SqlEndpoint, compiler: SqlCompiler, key: string, compile: () => T): T {
    const cache = this.#cacheOf(endpoint, compiler);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const read = compile();
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, read);
    return read;
  }

  /** How many reads are kept for this endpoint and compiler (tests: the bound). */
  size(endpoint: SqlEndpoint, compiler: SqlCompiler): number {
    return this.#caches.get(endpoint)?.get(compiler)?.size ?? 0;
  }
}

export const listReads = new ReadCache<CompiledRead>();
export const byIdReads = new ReadCache<CompiledById>();

/**
 * A GET list's compiled read by the query string as received (issue 30): a repeated request skips
 * reading its OData options and building their key. Only reads listReads would share between
 * callers are kept (tables and views, no RowFilter, no `$skiptoken`, no `$apply`: nothing of the
 * caller's in the statement); a query string longer than MAX_QUERY_TEXT is not kept.
 */
export interface ListReadByText {
  readonly pageSize: number;
  readonly read: CompiledRead;
}
export const listReadsByText = new ReadCache<ListReadByText>();
export const MAX_QUERY_TEXT = 2048;
