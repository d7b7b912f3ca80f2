/**
 * The SQL read path, independent of the web framework:
 *   request -> compileRead (compile-read.ts: OData options, RowFilter, plan, dialect; cached) -> execute -> shape.
 * GET list / QUERY: `{success, count, value, nextLink}` + X-Query-Time (+ X-Total-Records with
 * $count=true, Content-Location for QUERY). GET /{id}: the bare row.
 * Returns the body and headers of a 200; client errors are thrown as registry errors (WharfError)
 * where they are found, database failures as SqlDriverError (the runtime's 500 with traceId).
 */
import { normalizeExpandedTimestamps } from './expanded-timestamps.js';
import { readAggregate } from './aggregate-read.js';
import { takeKeysetValues } from './keyset.js';
import type { SqlEndpoint } from '../contract/model.js';
import { literalValue, type SqlCompiler, type CompiledQuery } from './compile/compiler.js';
import {
  compileRead, compileReadById, hiddenOf, isFunctionEndpoint, keysetMode, NO_TARGETS, PROCESS_SKIP_TOKENS, relationTargets,
  type ReadContext,
} from './compile-read.js';
import { SqlDriverError, type Row, type SqlDriver } from './drivers/driver.js';
import { WharfError } from '../errors/wharf-error.js';
import { keysetUrl, readUrl } from './links.js';
import { hiddenMessage } from './odata/hidden-columns.js';
import { ODATA_LIMITS } from './odata/limits.js';
import type { RawOptions } from './odata/options.js';
import { dbColumn, keyLiteral } from './plan.js';
import { fitsColumn } from './column-bounds.js';
import { optionsFromQueryBody, optionsFromQueryString } from './read-request.js';
import { parseRecordKey } from './record-key.js';
import { byIdReads, listReads, listReadsByText, MAX_QUERY_TEXT, withKey, type CompiledRead } from './query-cache.js';
import { applyTransforms, hasTransforms } from '../transforms/response-transforms.js';

export interface SqlReadRequest {
  readonly method: 'GET' | 'HEAD' | 'QUERY';
  /** URL path of the endpoint as requested, without TVF path segments or id (`/api/demo/Inventory/Products`). */
  readonly endpointPath: string;
  /** Segments after the endpoint path: the id, or the TVF path parameters. */
  readonly segments: readonly string[];
  /** Parsed query string (values string or string[]). */
  readonly query: Readonly<Record<string, unknown>>;
  /** QUERY only: the parsed JSON body. */
  readonly body?: unknown;
  /**
   * GET: the query string as received (after `?`, '' without one), from which `query` was parsed;
   * lists seen before are found by it. Absent: the options are always read from `query`.
   */
  readonly queryText?: string;
}

/** A read's 200: its body and headers. */
export interface SqlReadResult {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export interface SqlReadDeps extends ReadContext {
  readonly driver: SqlDriver;
  readonly compiler: SqlCompiler;
}

/**
 * Not an async function (issue 30: an async wrapper adopting the read's promise cost a promise and
 * two turns of the microtask queue per read): a client error found before the database is asked
 * comes back as a rejected promise, as it did from the async function.
 */
export function handleSqlRead(endpoint: SqlEndpoint, req: SqlReadRequest, deps: SqlReadDeps): Promise<SqlReadResult> {
  try {
    const isFunction = isFunctionEndpoint(endpoint);
    if (!isFunction && req.segments.length === 1 && req.method !== 'QUERY') return readOne(endpoint, req, deps);
    if (!isFunction && req.segments.length > 0) throw new WharfError('SQL_NOT_FOUND', { reason: 'Not found' });
    return readList(endpoint, req, deps, isFunction);
  } catch (error) {
    return Promise.reject(error);
  }
}

function keyPart(x: string | undefined): string {
  return x === undefined ? '\u0001' : x;
}

/** Cache key of a list read: every option that shapes the SQL (absent and empty differ). */
function optionsKey(raw: RawOptions, pageSize: number): string {
  return `${pageSize}\u0000${keyPart(raw.select)}\u0000${keyPart(raw.filter)}\u0000${keyPart(raw.orderby)}\u0000${keyPart(raw.top)}\u0000${keyPart(raw.skip)}\u0000${keyPart(raw.count)}\u0000${keyPart(raw.expand)}`;
}

async function timed(driver: SqlDriver, q: CompiledQuery): Promise<{ rows: Row[]; ms: number }> {
  const t = performance.now();
  const rows = await driver.query(q.sql, q.params);
  return { rows, ms: performance.now() - t };
}

/** The row shape of the response: nested $expand values get the top-level timestamp format and their target's transforms. */
function shapeRows(rows: Row[], endpoint: SqlEndpoint, targets: ReadonlyMap<string, SqlEndpoint>, expanded: readonly string[]): Row[] {
  const own = hasTransforms(endpoint.responseTransforms);
  if (expanded.length === 0 && !own) return rows;
  normalizeExpandedTimestamps(rows, expanded);
  const nested = expanded.map((name) => [name, targets.get(name)?.responseTransforms] as const).filter(([, t]) => t && hasTransforms(t));
  for (const [name, t] of nested) {
    for (const row of rows) {
      const v = row[name];
      if (Array.isArray(v)) row[name] = v.map((item: Row) => applyTransforms(item, t!));
      else if (v && typeof v === 'object') row[name] = applyTransforms(v as Row, t!);
    }
  }
  return own ? rows.map((r) => applyTransforms(r, endpoint.responseTransforms)) : rows;
}

/** shapeRows for a query's $expand; relationship targets are looked up only when something is expanded. */
function shapeResult(rows: Row[], endpoint: SqlEndpoint, deps: SqlReadDeps, expand: readonly { readonly name: string }[]): Row[] {
  if (expand.length === 0) return shapeRows(rows, endpoint, NO_TARGETS, []);
  return shapeRows(rows, endpoint, relationTargets(endpoint, deps), expand.map((x) => x.name));
}

function parseJsonColumns(rows: Row[], columns: readonly string[]): void {
  if (columns.length === 0) return;
  for (const row of rows) {
    for (const c of columns) {
      const v = row[c];
      if (typeof v === 'string') row[c] = JSON.parse(v);
    }
  }
}

let optionReads = 0;

/** How many list reads worked out their options from the request (tests: a repeated GET does not). */
export function listOptionReads(): number {
  return optionReads;
}

/**
 * Not an async function: parse/plan/compile (cached) synchronously, then one `.then` on the
 * database. A GET list seen before (same query string, endpoint and dialect) takes its compiled
 * read from listReadsByText without reading its options again.
 */
function readList(endpoint: SqlEndpoint, req: SqlReadRequest, deps: SqlReadDeps, isFunction: boolean): Promise<SqlReadResult> {
  const pageSize = deps.pageSize ?? ODATA_LIMITS.defaultTop;
  // a RowFilter binds the caller's claims: such a read is never kept, so never found either
  const given = req.method === 'GET' && !isFunction && !deps.rowFilter ? req.queryText : undefined;
  const text = given !== undefined && given.length <= MAX_QUERY_TEXT ? given : null;
  if (text !== null) {
    const known = listReadsByText.find(endpoint, deps.compiler, text);
    if (known !== undefined && known.pageSize === pageSize) return runList(endpoint, req, deps, isFunction, known.read, pageSize);
  }
  optionReads += 1;
  const raw: RawOptions = req.method === 'QUERY' ? optionsFromQueryBody(req.body, req.query) : optionsFromQueryString(req.query);
  if (raw.apply !== undefined) return aggregateList(endpoint, req, deps, raw, isFunction);
  if (raw.skiptoken !== undefined) {
    if (!keysetMode(endpoint)) throw new WharfError('SQL_BAD_REQUEST', { reason: '$skiptoken is only accepted by endpoints with "Paging": "Keyset"' });
    if (raw.skip !== undefined) throw new WharfError('SQL_BAD_REQUEST', { reason: '$skip cannot be combined with $skiptoken' });
  }
  const request = { options: raw, segments: req.segments, query: req.query };
  // a RowFilter binds the caller's claims, a token's values are parameters of their own: such a page
  // is compiled, not cached
  const compiled: CompiledRead = isFunction || deps.rowFilter || raw.skiptoken !== undefined
    ? compileRead(endpoint, request, deps.compiler, deps)
    : listReads.get(endpoint, deps.compiler, optionsKey(raw, pageSize), () => compileRead(endpoint, request, deps.compiler, deps));
  if (text !== null && raw.skiptoken === undefined) listReadsByText.keep(endpoint, deps.compiler, text, { pageSize, read: compiled });
  return runList(endpoint, req, deps, isFunction, compiled, pageSize);
}

/** The compiled list read against the database, then its response. */
function runList(endpoint: SqlEndpoint, req: SqlReadRequest, deps: SqlReadDeps, isFunction: boolean, compiled: CompiledRead, pageSize: number): Promise<SqlReadResult> {
  const { list, count } = compiled;
  const valueError = (error: unknown): never => {
    if (error instanceof SqlDriverError && error.kind === 'value') {
      // under a RowFilter the value may be a claim's (a column whose kind is not known, e.g. a function's)
      const code = deps.rowFilter ? 'SQL_COLUMN_VALUE_INVALID' : isFunction && !compiled.query.filter ? 'SQL_PARAMETER_VALUE_INVALID' : 'SQL_FILTER_VALUE_INVALID';
      throw new WharfError(code, undefined, { cause: error });
    }
    throw error;
  };
  if (count) {
    return Promise.all([timed(deps.driver, list), timed(deps.driver, count)]).then(
      ([listResult, countResult]) => listResponse(endpoint, req, deps, isFunction, compiled, pageSize, listResult, countResult),
      valueError,
    );
  }
  const started = performance.now();
  return deps.driver.query(list.sql, list.params).then(
    (rows) => listResponse(endpoint, req, deps, isFunction, compiled, pageSize, { rows, ms: performance.now() - started }, null),
    valueError,
  );
}

/** `$apply` (aggregate-read.ts): tables and views only. */
function aggregateList(endpoint: SqlEndpoint, req: SqlReadRequest, deps: SqlReadDeps, raw: RawOptions, isFunction: boolean): Promise<SqlReadResult> {
  if (isFunction) throw new WharfError('SQL_BAD_REQUEST', { reason: '$apply is not supported on table-valued function endpoints' });
  return readAggregate({ endpoint, raw, method: req.method, path: req.endpointPath, query: req.query, driver: deps.driver, compiler: deps.compiler, context: deps });
}

function listResponse(
  endpoint: SqlEndpoint,
  req: SqlReadRequest,
  deps: SqlReadDeps,
  isFunction: boolean,
  compiled: CompiledRead,
  pageSize: number,
  listResult: { rows: Row[]; ms: number },
  countResult: { rows: Row[]; ms: number } | null,
): SqlReadResult {
  const { query, list, linkPrefix } = compiled;
  const top = query.top ?? pageSize;
  const rows = listResult.rows;
  const hasMore = rows.length > top && top > 0;
  if (rows.length > top) rows.length = top;
  const keyset = compiled.keyset ? takeKeysetValues(rows, compiled.keyset.count) : null;
  parseJsonColumns(rows, list.jsonColumns);
  const value = shapeResult(rows, endpoint, deps, query.expand);
  const path = isFunction && req.segments.length > 0 ? `${req.endpointPath}/${req.segments.map(encodeURIComponent).join('/')}` : req.endpointPath;
  const headers: Record<string, string> = {
    'x-query-time': (listResult.ms + (countResult?.ms ?? 0)).toFixed(2),
  };
  if (countResult) headers['x-total-records'] = String(Number(countResult.rows[0]?.['count'] ?? 0));
  if (req.method === 'QUERY') headers['content-location'] = readUrl(path, linkPrefix, top, query.skip, req.query);
  return {
    headers,
    body: {
      success: true,
      count: value.length,
      value,
      nextLink: !hasMore ? null
        : keyset === null ? readUrl(path, linkPrefix, top, query.skip + top, req.query)
          : keysetUrl(path, linkPrefix, top, (deps.skipTokens ?? PROCESS_SKIP_TOKENS).seal(keyset, compiled.keyset!.binding), req.query),
    },
  };
}

const BY_ID_OPTIONS = new Set(['select', 'expand']);

/** What a read by key needs of its endpoint, worked out once per loaded endpoint. */
interface ByIdShape {
  readonly keyName: string;
  /** The key's database column. */
  readonly keyColumn: string;
  /** Why records cannot be read by key (the key is masked or removed), or null. */
  readonly refusal: string | null;
}

const BY_ID_SHAPES = new WeakMap<SqlEndpoint, ByIdShape>();

function byIdShape(endpoint: SqlEndpoint): ByIdShape {
  let shape = BY_ID_SHAPES.get(endpoint);
  if (shape === undefined) {
    const keyName = endpoint.primaryKey ?? 'Id';
    const keyHidden = hiddenOf(endpoint).get(endpoint.columns.find((c) => c.name === keyName || c.db === keyName)?.name ?? keyName);
    shape = {
      keyName,
      keyColumn: dbColumn(endpoint, keyName),
      refusal: keyHidden === undefined ? null : `Records cannot be read by key: ${hiddenMessage(keyName, keyHidden, 'used as a key')}`,
    };
    BY_ID_SHAPES.set(endpoint, shape);
  }
  return shape;
}

/** Not an async function: the checks and the compiled query are synchronous, the answer is one `.then`. */
function readOne(endpoint: SqlEndpoint, req: SqlReadRequest, deps: SqlReadDeps): Promise<SqlReadResult> {
  const raw = optionsFromQueryString(req.query);
  for (const key of Object.keys(raw)) {
    if (!BY_ID_OPTIONS.has(key)) throw new WharfError('SQL_BAD_REQUEST', { reason: `$${key} does not apply when reading one record` });
  }
  const { keyName, keyColumn, refusal } = byIdShape(endpoint);
  if (refusal !== null) throw new WharfError('SQL_BAD_REQUEST', { reason: refusal });
  const cacheKey = `${keyPart(raw.select)}\u0000${keyPart(raw.expand)}`;
  const read = deps.rowFilter ? compileReadById(endpoint, raw, deps.compiler, deps)
    : byIdReads.get(endpoint, deps.compiler, cacheKey, () => compileReadById(endpoint, raw, deps.compiler, deps));
  const id = req.segments[0] as string;
  const key = parseRecordKey(id);
  const notFound = (cause?: unknown) => new WharfError('SQL_RECORD_NOT_FOUND', { keyName, id: id.slice(0, 100) }, { cause });
  // a key of the wrong kind or outside the key column's type names no record (column-bounds.ts), as for every method
  if (!fitsColumn(deps.columnKinds, keyColumn, key)) throw notFound();
  const compiled = withKey(read, literalValue(keyLiteral(key)));
  const started = performance.now();
  return deps.driver.query(compiled.sql, compiled.params).then(
    (rows) => {
      const ms = performance.now() - started;
      const row = rows[0];
      if (!row) throw notFound();
      parseJsonColumns([row], compiled.jsonColumns);
      const body = shapeResult([row], endpoint, deps, read.query.expand)[0];
      return { headers: { 'x-query-time': ms.toFixed(2) }, body };
    },
    (error: unknown) => {
      // a key the database cannot convert to the key column's type names no record
      if (error instanceof SqlDriverError && error.kind === 'value') throw notFound(error);
      throw error;
    },
  );
}
