/**
 * Compiled list queries per endpoint model, keyed by the raw option text: a repeated request skips
 * parse, plan and compile. Keyed by the model object, so a reload (new models) starts empty.
 * Each endpoint keeps at most MAX_ENTRIES (oldest evicted first). Only tables and views are cached
 * (function arguments vary per request); parameters are part of the cached compiled query.
 */
import type { SqlEndpoint } from '../contract/model.js';
import type { CompiledQuery, SqlCompiler } from './compile/compiler.js';
import type { ODataQuery } from './odata/ast.js';

export interface CompiledRead {
  readonly query: ODataQuery;
  /** Encoded options for nextLink / Content-Location (links.ts optionPrefix). */
  readonly linkPrefix: string;
  readonly list: CompiledQuery;
  readonly count: CompiledQuery | null;
}

const MAX_ENTRIES = 256;
const caches = new WeakMap<SqlEndpoint, WeakMap<SqlCompiler, Map<string, CompiledRead>>>();

function cacheOf(endpoint: SqlEndpoint, compiler: SqlCompiler): Map<string, CompiledRead> {
  let byCompiler = caches.get(endpoint);
  if (!byCompiler) {
    byCompiler = new WeakMap();
    caches.set(endpoint, byCompiler);
  }
  let cache = byCompiler.get(compiler);
  if (!cache) {
    cache = new Map();
    byCompiler.set(compiler, cache);
  }
  return cache;
}

export function findRead(endpoint: SqlEndpoint, compiler: SqlCompiler, key: string): CompiledRead | undefined {
  return caches.get(endpoint)?.get(compiler)?.get(key);
}

/** Keeps `read` under `key` (evicting the oldest entry when full) and returns it. */
export function storeRead(endpoint: SqlEndpoint, compiler: SqlCompiler, key: string, read: CompiledRead): CompiledRead {
  const cache = cacheOf(endpoint, compiler);
  if (cache.size >= MAX_ENTRIES && !cache.has(key)) cache.delete(cache.keys().next().value as string);
  cache.set(key, read);
  return read;
}

export function cachedRead(endpoint: SqlEndpoint, compiler: SqlCompiler, key: string, build: () => CompiledRead): CompiledRead {
  return findRead(endpoint, compiler, key) ?? storeRead(endpoint, compiler, key, build());
}
