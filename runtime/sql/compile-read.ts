/**
 * The pure front half of a SQL read: endpoint model + parsed request + dialect -> SQL and
 * parameters. parse the OData options (allow-list, hidden columns, the catalogue's column kinds)
 * -> AND the Authorization RowFilter -> plan -> compile. No I/O: the handler (handler.ts) caches
 * and executes what this returns, and tests compile exactly what the handler runs.
 * Refusals are thrown as registry errors (WharfError) where they are found.
 */
import type { SqlEndpoint } from '../contract/model.js';
import { planAggregate } from './aggregate-plan.js';
import type { CompiledQuery, SqlCompiler } from './compile/compiler.js';
import { WharfError } from '../errors/wharf-error.js';
import { functionArgs } from './function-args.js';
import { keysetBinding, keysetPlan } from './keyset.js';
import { SkipTokenSealer } from './keyset-token.js';
import { optionPrefix } from './links.js';
import { parseApplyRequest, type ApplyRequest } from './odata/apply-options.js';
import type { FilterExpr, ODataQuery } from './odata/ast.js';
import type { ColumnMap } from './odata/filter-parser.js';
import { hiddenColumns, type HiddenColumns } from './odata/hidden-columns.js';
import { ODATA_LIMITS } from './odata/limits.js';
import { parseQueryOptions, type RawOptions } from './odata/options.js';
import { checkFilterTypes, type ColumnKinds } from './odata/type-check.js';
import { dbColumn, planById, planCount, planRead, type FunctionArg, type PlanInput, type ReadPlan, type TypedValue } from './plan.js';
import type { CompiledById, CompiledRead } from './query-cache.js';
import { andFilter } from './rule-scope.js';

/** What a read needs besides its endpoint and request: the rest of the model and the caller's scope. */
export interface ReadContext {
  /** Other SQL endpoints by id (relationship targets). */
  readonly resolveEndpoint: (id: string) => SqlEndpoint | undefined;
  /** Page size when `$top` is absent (default ODATA_LIMITS.defaultTop = 100). */
  readonly pageSize?: number;
  /** exposed name -> db column; default derived from endpoint.columns (the route module's columnsByName). */
  readonly columnsByName?: ColumnMap;
  /** db column -> value kind from the database catalogue (column-types.ts); absent = not checked. */
  readonly columnKinds?: ColumnKinds;
  /** The Authorization rule's RowFilter, claims bound (rule-scope.ts): ANDed to the read. */
  readonly rowFilter?: FilterExpr | null;
  /** Seals and opens `$skiptoken`s of keyset paging (Sql:SkipTokenSecret); default a per-process key. */
  readonly skipTokens?: SkipTokenSealer;
}

/** A list read as parsed from the URL or QUERY body. */
export interface ParsedReadRequest {
  readonly options: RawOptions;
  /** A table-valued function's path segments (empty otherwise). */
  readonly segments?: readonly string[];
  /** The query string (a table-valued function's query parameters). */
  readonly query?: Readonly<Record<string, unknown>>;
}

/** A compiled list read and the plan it was compiled from. */
export interface CompiledListRead extends CompiledRead {
  readonly plan: ReadPlan;
  readonly input: PlanInput;
}

/** Keyset tokens of reads without their own sealer (tests calling the handler directly). */
export const PROCESS_SKIP_TOKENS = new SkipTokenSealer('');

export function isFunctionEndpoint(endpoint: SqlEndpoint): boolean {
  return endpoint.objectType === 'TableValuedFunction';
}

export function keysetMode(endpoint: SqlEndpoint): boolean {
  return endpoint.paging === 'Keyset' && !isFunctionEndpoint(endpoint);
}

export function columnMap(endpoint: SqlEndpoint): ColumnMap {
  return Object.fromEntries(endpoint.columns.map((c) => [c.name, c.db]));
}

export const NO_TARGETS: ReadonlyMap<string, SqlEndpoint> = new Map();

export function relationTargets(endpoint: SqlEndpoint, context: ReadContext): ReadonlyMap<string, SqlEndpoint> {
  if (endpoint.relationships.length === 0) return NO_TARGETS;
  const out = new Map<string, SqlEndpoint>();
  for (const rel of endpoint.relationships) {
    const target = context.resolveEndpoint(rel.targetId);
    if (target && target.objectType !== 'TableValuedFunction') out.set(rel.name, target);
  }
  return out;
}

const HIDDEN = new WeakMap<SqlEndpoint, HiddenColumns>();

/** Columns the endpoint's transforms mask or remove (computed once per loaded endpoint). */
export function hiddenOf(endpoint: SqlEndpoint): HiddenColumns {
  let hidden = HIDDEN.get(endpoint);
  if (hidden === undefined) {
    hidden = hiddenColumns(endpoint.columns, endpoint.responseTransforms);
    HIDDEN.set(endpoint, hidden);
  }
  return hidden;
}

function parseContext(endpoint: SqlEndpoint, context: ReadContext, targets: ReadonlyMap<string, SqlEndpoint>) {
  const relationships = isFunctionEndpoint(endpoint) ? null : new Map([...targets].map(([name, t]) => [name, columnMap(t)]));
  return { columns: context.columnsByName ?? columnMap(endpoint), relationships, hidden: hiddenOf(endpoint) };
}

/**
 * The client's query with its $filter type-checked, then the rule's RowFilter ANDed (one place for
 * lists and reads by key). $expand into an endpoint with Authorization rules is refused: its rows and
 * columns depend on the caller too, and expanded rows are not filtered by them.
 */
function withRowFilter(query: ODataQuery, context: ReadContext, targets: ReadonlyMap<string, SqlEndpoint>): ODataQuery {
  if (query.filter && context.columnKinds) checkFilterTypes(query.filter, context.columnKinds);
  for (const item of query.expand) {
    if (targets.get(item.name)?.authorization !== undefined) throw new WharfError('SQL_EXPAND_UNDER_RULES', { name: item.name });
  }
  const rowFilter = context.rowFilter ?? null;
  return rowFilter === null ? query : { ...query, filter: andFilter(query.filter, rowFilter) };
}

/** parse -> plan -> compile of a list read (what the query cache keeps for tables and views). */
export function compileRead(endpoint: SqlEndpoint, request: ParsedReadRequest, compiler: SqlCompiler, context: ReadContext): CompiledListRead {
  const raw = request.options;
  const targets = relationTargets(endpoint, context);
  const query = withRowFilter(parseQueryOptions(raw, parseContext(endpoint, context, targets)), context, targets);
  const args: FunctionArg[] | null = isFunctionEndpoint(endpoint) ? functionArgs(endpoint.functionParameters, request.segments ?? [], request.query ?? {}) : null;
  const input: PlanInput = { endpoint, query, args, relationTargets: targets, pageSize: context.pageSize ?? ODATA_LIMITS.defaultTop };
  let plan = planRead(input);
  let keyset: CompiledRead['keyset'] = null;
  if (keysetMode(endpoint)) {
    keyset = { count: plan.orderBy.length, binding: keysetBinding(endpoint.id, raw.orderby) };
    const key = endpoint.primaryKey === null ? null : dbColumn(endpoint, endpoint.primaryKey);
    const values = raw.skiptoken === undefined ? null
      : (context.skipTokens ?? PROCESS_SKIP_TOKENS).open(raw.skiptoken, keyset.binding, keyset.count);
    plan = keysetPlan(plan, key, values);
  }
  return {
    query,
    linkPrefix: optionPrefix(raw),
    list: compiler.compileRead(plan),
    keyset,
    count: query.count ? compiler.compileCount(planCount(input)) : null,
    plan,
    input,
  };
}

/** Stands for the key while a read by key is compiled (a real key never contains NUL: record-key.ts). */
const KEY_PLACEHOLDER: TypedValue = { type: 'string', value: '\u0000key' };

/** parse -> plan -> compile of a read by key, with a placeholder key (query-cache.ts withKey puts the real one in). */
export function compileReadById(endpoint: SqlEndpoint, options: RawOptions, compiler: SqlCompiler, context: ReadContext): CompiledById {
  const targets = relationTargets(endpoint, context);
  const query = withRowFilter(parseQueryOptions(options, parseContext(endpoint, context, targets)), context, targets);
  const plan = planById({ endpoint, query, args: null, relationTargets: targets, pageSize: 1 }, KEY_PLACEHOLDER);
  const compiled = compiler.compileRead({ ...plan, where: andFilter(plan.where, context.rowFilter ?? null) });
  const keyIndex = compiled.params.findIndex((p) => p.value === KEY_PLACEHOLDER.value);
  if (keyIndex < 0) throw new Error(`the read by key of ${endpoint.id} compiled without its key parameter`);
  return { query, compiled, keyIndex };
}

/** parse -> plan -> compile of a `$apply` read (tables and views): the grouped query and its page. */
export function compileAggregateRead(
  endpoint: SqlEndpoint,
  options: RawOptions,
  compiler: SqlCompiler,
  context: ReadContext,
): { readonly request: ApplyRequest; readonly top: number; readonly compiled: CompiledQuery } {
  const request = parseApplyRequest(options, context.columnsByName ?? columnMap(endpoint), hiddenOf(endpoint), endpoint.responseTransforms, context.columnKinds);
  const top = request.top ?? context.pageSize ?? ODATA_LIMITS.defaultTop;
  const plan = planAggregate({ endpoint, apply: request.apply, orderby: request.orderby, top, skip: request.skip, ...(context.columnKinds ? { kinds: context.columnKinds } : {}) });
  return { request, top, compiled: compiler.compileAggregate({ ...plan, where: andFilter(plan.where, context.rowFilter ?? null) }) };
}
