/**
 * The SQL read path, independent of the web framework:
 *   request -> OData options -> ODataQuery (allow-list) -> plan -> compile (dialect) -> execute -> shape.
 * GET list / QUERY: `{success, count, value, nextLink}` + X-Query-Time (+ X-Total-Records with
 * $count=true, Content-Location for QUERY). GET /{id}: the bare row, 404 when absent.
 * Client errors come back as responses; database failures are thrown (SqlDriverError) for the
 * runtime to answer with the spec's 500 and traceId.
 */
import { normalizeExpandedTimestamps } from './expanded-timestamps.js';
import { readAggregate } from './aggregate-read.js';
import { keysetBinding, keysetPlan, takeKeysetValues } from './keyset.js';
import { SkipTokenSealer } from './keyset-token.js';
import type { SqlEndpoint } from '../contract/model.js';
import { literalValue, type SqlCompiler, type CompiledQuery } from './compile/compiler.js';
import { SqlDriverError, type Row, type SqlDriver } from './drivers/driver.js';
import { SqlRequestError } from './errors.js';
import { functionArgs } from './function-args.js';
import { keysetUrl, optionPrefix, readUrl } from './links.js';
import { ODataError } from './odata/errors.js';
import type { ColumnMap } from './odata/filter-parser.js';
import { hiddenColumns, hiddenMessage, type HiddenColumns } from './odata/hidden-columns.js';
import { ODATA_LIMITS } from './odata/limits.js';
import { checkFilterTypes, type ColumnKinds, type ValueKind } from './odata/type-check.js';
import { parseQueryOptions, type RawOptions } from './odata/options.js';
import type { FilterExpr, ODataQuery } from './odata/ast.js';
import { andFilter } from './rule-scope.js';
import { dbColumn, keyLiteral, planById, planCount, planRead, type FunctionArg, type PlanInput, type TypedValue } from './plan.js';
import { optionsFromQueryBody, optionsFromQueryString } from './read-request.js';
import { parseRecordKey } from './record-key.js';
import { byIdReads, listReads, withKey, type CompiledById, type CompiledRead } from './query-cache.js';
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
}

export interface SqlReadResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export interface SqlReadDeps {
  readonly driver: SqlDriver;
  readonly compiler: SqlCompiler;
  /** Other SQL endpoints by id (relationship targets). */
  readonly resolveEndpoint: (id: string) => SqlEndpoint | undefined;
  /** Page size when `$top` is absent (default ODATA_LIMITS.defaultTop = 100). */
  readonly pageSize?: number;
  /** exposed name -> db column; default derived from endpoint.columns (the route module's columnsByName). */
  readonly columnsByName?: ColumnMap;
  /** db column -> value kind from the database catalogue (column-types.ts); absent = not checked. */
  readonly columnKinds?: ColumnKinds;
  /** The Authorization rule's RowFilter, claims bound (rule-scope.ts): ANDed to the read; such reads skip the query cache. */
  readonly rowFilter?: FilterExpr | null;
  /** Seals and opens `$skiptoken`s of keyset paging (Sql:SkipTokenSecret); default a per-process key. */
  readonly skipTokens?: SkipTokenSealer;
}

/** Keyset tokens of reads without their own sealer (tests calling handleSqlRead directly). */
const PROCESS_SKIP_TOKENS = new SkipTokenSealer('');

function keysetMode(endpoint: SqlEndpoint, isFunction: boolean): boolean {
  return endpoint.paging === 'Keyset' && !isFunction;
}

export function columnMap(endpoint: SqlEndpoint): ColumnMap {
  return Object.fromEntries(endpoint.columns.map((c) => [c.name, c.db]));
}

const NO_TARGETS: ReadonlyMap<string, SqlEndpoint> = new Map();

function relationTargets(endpoint: SqlEndpoint, deps: SqlReadDeps): ReadonlyMap<string, SqlEndpoint> {
  if (endpoint.relationships.length === 0) return NO_TARGETS;
  const out = new Map<string, SqlEndpoint>();
  for (const rel of endpoint.relationships) {
    const target = deps.resolveEndpoint(rel.targetId);
    if (target && target.objectType !== 'TableValuedFunction') out.set(rel.name, target);
  }
  return out;
}

function clientError(status: number, message: string): SqlReadResponse {
  return { status, headers: {}, body: { success: false, error: message } };
}

export async function handleSqlRead(endpoint: SqlEndpoint, req: SqlReadRequest, deps: SqlReadDeps): Promise<SqlReadResponse> {
  try {
    const isFunction = endpoint.objectType === 'TableValuedFunction';
    if (!isFunction && req.segments.length === 1 && req.method !== 'QUERY') return await readOne(endpoint, req, deps);
    if (!isFunction && req.segments.length > 0) return clientError(404, 'Not found');
    return await readList(endpoint, req, deps, isFunction);
  } catch (error) {
    if (error instanceof ODataError || error instanceof SqlRequestError) return clientError(error.status, error.message);
    throw error;
  }
}

function parseContext(endpoint: SqlEndpoint, deps: SqlReadDeps, targets: ReadonlyMap<string, SqlEndpoint>, isFunction: boolean) {
  const relationships = isFunction ? null : new Map([...targets].map(([name, t]) => [name, columnMap(t)]));
  return { columns: deps.columnsByName ?? columnMap(endpoint), relationships, hidden: hiddenOf(endpoint) };
}

const HIDDEN = new WeakMap<SqlEndpoint, HiddenColumns>();

/** Columns the endpoint's transforms mask or remove (computed once per loaded endpoint). */
function hiddenOf(endpoint: SqlEndpoint): HiddenColumns {
  let hidden = HIDDEN.get(endpoint);
  if (hidden === undefined) {
    hidden = hiddenColumns(endpoint.columns, endpoint.responseTransforms);
    HIDDEN.set(endpoint, hidden);
  }
  return hidden;
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

/**
 * The client's query with its $filter type-checked, then the rule's RowFilter ANDed (one place for
 * lists and reads by key). $expand into an endpoint with Authorization rules is refused: its rows and
 * columns depend on the caller too, and expanded rows are not filtered by them.
 */
function withRowFilter(query: ODataQuery, deps: SqlReadDeps, targets: ReadonlyMap<string, SqlEndpoint>): ODataQuery {
  if (query.filter && deps.columnKinds) checkFilterTypes(query.filter, deps.columnKinds);
  for (const item of query.expand) {
    if (targets.get(item.name)?.authorization !== undefined) {
      throw new SqlRequestError(400, `$expand: '${item.name}' cannot be expanded: its endpoint has Authorization rules (read it on its own)`);
    }
  }
  const rowFilter = deps.rowFilter ?? null;
  return rowFilter === null ? query : { ...query, filter: andFilter(query.filter, rowFilter) };
}

/** parse -> plan -> compile of a list read (the part the query cache keeps for tables and views). */
function compileList(
  endpoint: SqlEndpoint,
  req: SqlReadRequest,
  deps: SqlReadDeps,
  raw: RawOptions,
  targets: ReadonlyMap<string, SqlEndpoint>,
  pageSize: number,
  isFunction: boolean,
): CompiledRead {
  const query = withRowFilter(parseQueryOptions(raw, parseContext(endpoint, deps, targets, isFunction)), deps, targets);
  const args: FunctionArg[] | null = isFunction ? functionArgs(endpoint.functionParameters, req.segments, req.query) : null;
  const input: PlanInput = { endpoint, query, args, relationTargets: targets, pageSize };
  let plan = planRead(input);
  let keyset: CompiledRead['keyset'] = null;
  if (keysetMode(endpoint, isFunction)) {
    keyset = { count: plan.orderBy.length, binding: keysetBinding(endpoint.id, raw.orderby) };
    const key = endpoint.primaryKey === null ? null : dbColumn(endpoint, endpoint.primaryKey);
    const values = raw.skiptoken === undefined ? null
      : (deps.skipTokens ?? PROCESS_SKIP_TOKENS).open(raw.skiptoken, keyset.binding, keyset.count);
    plan = keysetPlan(plan, key, values);
  }
  return {
    query,
    linkPrefix: optionPrefix(raw),
    list: deps.compiler.compileRead(plan),
    keyset,
    count: query.count ? deps.compiler.compileCount(planCount(input)) : null,
  };
}

/** Not an async function: parse/plan/compile (cached) synchronously, then one `.then` on the database. */
function readList(endpoint: SqlEndpoint, req: SqlReadRequest, deps: SqlReadDeps, isFunction: boolean): Promise<SqlReadResponse> {
  const raw: RawOptions = req.method === 'QUERY' ? optionsFromQueryBody(req.body, req.query) : optionsFromQueryString(req.query);
  const pageSize = deps.pageSize ?? ODATA_LIMITS.defaultTop;
  if (raw.apply !== undefined) return aggregateList(endpoint, req, deps, raw, pageSize, isFunction);
  if (raw.skiptoken !== undefined) {
    if (!keysetMode(endpoint, isFunction)) throw new SqlRequestError(400, '$skiptoken is only accepted by endpoints with "Paging": "Keyset"');
    if (raw.skip !== undefined) throw new SqlRequestError(400, '$skip cannot be combined with $skiptoken');
  }
  let compiled: CompiledRead;
  // a RowFilter binds the caller's claims, a token's values are parameters of their own: such a page
  // is compiled, not cached
  if (isFunction || deps.rowFilter || raw.skiptoken !== undefined) compiled = compileList(endpoint, req, deps, raw, relationTargets(endpoint, deps), pageSize, isFunction);
  else {
    compiled = listReads.get(endpoint, deps.compiler, optionsKey(raw, pageSize), () =>
      compileList(endpoint, req, deps, raw, relationTargets(endpoint, deps), pageSize, false),
    );
  }
  const { list, count } = compiled;
  const valueError = (error: unknown): never => {
    if (error instanceof SqlDriverError && error.kind === 'value') {
      throw new SqlRequestError(400, isFunction && !compiled.query.filter ? 'A parameter value does not match its SQL type' : '$filter: a value does not match the type of its column');
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
function aggregateList(endpoint: SqlEndpoint, req: SqlReadRequest, deps: SqlReadDeps, raw: RawOptions, pageSize: number, isFunction: boolean): Promise<SqlReadResponse> {
  if (isFunction) throw new SqlRequestError(400, '$apply is not supported on table-valued function endpoints');
  return readAggregate({
    endpoint, raw, method: req.method, path: req.endpointPath, query: req.query,
    columns: deps.columnsByName ?? columnMap(endpoint), hidden: hiddenOf(endpoint), kinds: deps.columnKinds,
    pageSize, driver: deps.driver, compiler: deps.compiler, rowFilter: deps.rowFilter ?? null,
  });
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
): SqlReadResponse {
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
    status: 200,
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

/** A key whose shape cannot be a value of the key column is a client error, not a missing row. */
function checkKeyKind(keyName: string, key: TypedValue, kind: ValueKind | undefined): void {
  const fits =
    kind === undefined || kind === 'string' ||
    (kind === 'number' && (key.type === 'int' || key.type === 'bigint')) ||
    (kind === 'guid' && key.type === 'guid');
  if (!fits) throw new SqlRequestError(400, `Invalid key '${String(key.value).slice(0, 100)}': ${keyName} is ${kind === 'guid' ? 'a GUID' : `a ${kind}`}`);
}

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

/** Stands for the key while a read by key is compiled (a real key never contains NUL: record-key.ts). */
const KEY_PLACEHOLDER: TypedValue = { type: 'string', value: '\u0000key' };

/** parse -> plan -> compile of a read by key, with a placeholder key (query-cache.ts withKey puts the real one in). */
function compileById(endpoint: SqlEndpoint, deps: SqlReadDeps, raw: RawOptions): CompiledById {
  const targets = relationTargets(endpoint, deps);
  const query = withRowFilter(parseQueryOptions(raw, parseContext(endpoint, deps, targets, false)), deps, targets);
  const plan = planById({ endpoint, query, args: null, relationTargets: targets, pageSize: 1 }, KEY_PLACEHOLDER);
  const compiled = deps.compiler.compileRead({ ...plan, where: andFilter(plan.where, deps.rowFilter ?? null) });
  const keyIndex = compiled.params.findIndex((p) => p.value === KEY_PLACEHOLDER.value);
  if (keyIndex < 0) throw new Error(`the read by key of ${endpoint.id} compiled without its key parameter`);
  return { query, compiled, keyIndex };
}

/** Not an async function: the checks and the compiled query are synchronous, the answer is one `.then`. */
function readOne(endpoint: SqlEndpoint, req: SqlReadRequest, deps: SqlReadDeps): Promise<SqlReadResponse> {
  const raw = optionsFromQueryString(req.query);
  for (const key of Object.keys(raw)) {
    if (!BY_ID_OPTIONS.has(key)) throw new SqlRequestError(400, `$${key} does not apply when reading one record`);
  }
  const { keyName, keyColumn, refusal } = byIdShape(endpoint);
  if (refusal !== null) throw new SqlRequestError(400, refusal);
  const cacheKey = `${keyPart(raw.select)}\u0000${keyPart(raw.expand)}`;
  const read = deps.rowFilter ? compileById(endpoint, deps, raw) : byIdReads.get(endpoint, deps.compiler, cacheKey, () => compileById(endpoint, deps, raw));
  const id = req.segments[0] as string;
  const key = parseRecordKey(id);
  checkKeyKind(keyName, key, deps.columnKinds?.get(keyColumn));
  const compiled = withKey(read, literalValue(keyLiteral(key)));
  const started = performance.now();
  return deps.driver.query(compiled.sql, compiled.params).then(
    (rows) => {
      const ms = performance.now() - started;
      const row = rows[0];
      if (!row) return clientError(404, notFoundMessage(keyName, id));
      parseJsonColumns([row], compiled.jsonColumns);
      const body = shapeResult([row], endpoint, deps, read.query.expand)[0];
      return { status: 200, headers: { 'x-query-time': ms.toFixed(2) }, body };
    },
    (error: unknown) => {
      if (error instanceof SqlDriverError && error.kind === 'value') return clientError(404, notFoundMessage(keyName, id));
      throw error;
    },
  );
}

function notFoundMessage(keyName: string, id: string): string {
  return `No record found with ${keyName} = ${id.slice(0, 100)}`;
}
