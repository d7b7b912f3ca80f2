/**
 * The SQL endpoint handler for the runtime's HandlerRegistry:
 *   registry.register('sql', createSqlHandler(drivers))
 * Reads go through handleSqlRead, writes (POST/PUT/PATCH/MERGE/DELETE) through handleSqlWrite;
 * both throw their client errors as registry errors (WharfError) where they are found, and the one
 * error handler answers them.
 */
import type { EndpointHandler, HandlerContext } from '../handlers/handler-context.js';
import { columnKindsFor, tableRefOf } from './column-types.js';
import { compilerFor } from './compile/dialect.js';
import { WharfError } from '../errors/wharf-error.js';
import { SqlDriverError, type SqlDriver } from './drivers/driver.js';
import type { SqlDrivers } from './drivers/factory.js';
import { handleSqlRead, type SqlReadRequest } from './handler.js';
import type { ColumnKinds } from './odata/type-check.js';
import type { SqlEndpoint } from '../contract/model.js';
import type { RouteTable } from '../routing/route-table.js';
import { allowHeader, mediaType } from '../pipeline/stages.js';
import { handleSqlWrite, writeMethodOf } from './write-handler.js';
import { DEFAULT_MAX_BATCH_ROWS } from './batch-handler.js';
import type { SqlSettings } from './sql-settings.js';
import { SkipTokenSealer } from './keyset-token.js';
import { sqlRuleScope } from './rule-scope.js';
import { typedRowFilter } from '../auth/rules/row-filter.js';
import type { SqlRuleScope } from './rule-scope.js';

/** The endpoint as the request's Authorization rule sees it (the model itself without rules). */
function scopeOf(ctx: HandlerContext<'sql'>): SqlRuleScope {
  return sqlRuleScope(ctx.endpoint.model, ctx.request.wharfRule ?? null, ctx.request.wharfAccess?.principal?.claims ?? {}, ctx.endpoint.route.columnsByName);
}

function segmentsOf(ctx: HandlerContext<'sql'>): readonly string[] {
  const t = ctx.target;
  return t.kind === 'collection' ? [] : t.kind === 'item' ? [t.id] : t.segments;
}

/** The requested path without the trailing id/function segments. */
function endpointPath(url: string, segmentCount: number): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (segmentCount === 0) return path.endsWith('/') ? path.replace(/\/+$/, '') : path;
  const parts = path.replace(/\/+$/, '').split('/');
  return parts.slice(0, parts.length - segmentCount).join('/');
}

/** A read as handleSqlRead sees it; the endpoint path (only lists need it, for links) is worked out when read. */
class ReadRequest implements SqlReadRequest {
  constructor(
    readonly method: 'GET' | 'QUERY',
    private readonly url: string,
    readonly segments: readonly string[],
    readonly query: Readonly<Record<string, unknown>>,
    readonly body: unknown,
  ) {}

  get endpointPath(): string {
    return endpointPath(this.url, this.segments.length);
  }

  /** GET: the query string fastify parsed `query` from (QUERY takes its options from the body). */
  get queryText(): string | undefined {
    if (this.method !== 'GET') return undefined;
    const q = this.url.indexOf('?');
    return q < 0 ? '' : this.url.slice(q + 1);
  }
}

const resolvers = new WeakMap<RouteTable, (id: string) => SqlEndpoint | undefined>();

/** SQL endpoints of a route table by id (relationship targets); one function per table. */
function sqlEndpointsOf(routes: RouteTable): (id: string) => SqlEndpoint | undefined {
  let resolve = resolvers.get(routes);
  if (!resolve) {
    resolve = (id) => {
      const e = routes.byId(id);
      return e && e.kind === 'sql' ? (e.model as SqlEndpoint) : undefined;
    };
    resolvers.set(routes, resolve);
  }
  return resolve;
}

/** Database failures worth a line of their own (the 500 itself is logged by the error handler). */
function logDriverFailure(ctx: HandlerContext<'sql'>, error: unknown): void {
  const env = ctx.environment;
  if (error instanceof SqlDriverError && error.kind === 'connection') {
    ctx.request.log.error({ event: 'sql.connection_failed', environment: env.name, provider: env.provider, code: error.code, err: error.message }, 'database unreachable');
  } else if (error instanceof SqlDriverError && error.kind === 'timeout') {
    ctx.request.log.error({ event: 'sql.command_timeout', environment: env.name, provider: env.provider, code: error.code, err: error.message }, 'database command timed out');
  }
}

function failed(ctx: HandlerContext<'sql'>): (error: unknown) => never {
  return (error) => {
    logDriverFailure(ctx, error);
    throw error;
  };
}

/**
 * A read, in plain functions and one `.then` (no async frame kept per request while the database
 * answers): the started driver and the column kinds are taken without waiting when they are known.
 */
function read(ctx: HandlerContext<'sql'>, driver: SqlDriver, method: 'GET' | 'QUERY', skipTokens: SkipTokenSealer): Promise<unknown> {
  const model = ctx.endpoint.model;
  const kinds = columnKindsFor(driver, tableRefOf(model));
  if (kinds instanceof Promise) return kinds.then((known) => readWith(ctx, driver, method, known, skipTokens));
  return readWith(ctx, driver, method, kinds, skipTokens);
}

function readWith(ctx: HandlerContext<'sql'>, driver: SqlDriver, method: 'GET' | 'QUERY', columnKinds: ColumnKinds, skipTokens: SkipTokenSealer): Promise<unknown> {
  const env = ctx.environment;
  const request = new ReadRequest(method, ctx.request.url, segmentsOf(ctx), (ctx.request.query ?? {}) as Record<string, unknown>, ctx.request.body);
  const timing = ctx.timing;
  timing.start('sql');
  const scope = scopeOf(ctx);
  return handleSqlRead(scope.endpoint, request, {
    driver,
    compiler: compilerFor(env.provider),
    ...(scope.columnsByName ? { columnsByName: scope.columnsByName } : {}),
    columnKinds,
    skipTokens,
    resolveEndpoint: sqlEndpointsOf(ctx.routes),
    rowFilter: scope.rowFilter && typedRowFilter(scope.rowFilter, columnKinds),
  }).then(
    (result) => {
      timing.end('sql');
      ctx.reply.headers(result.headers);
      return result.body;
    },
    (error: unknown) => {
      timing.end('sql');
      logDriverFailure(ctx, error);
      throw error;
    },
  );
}

export function createSqlHandler(drivers: SqlDrivers, settings: SqlSettings = { maxBatchRows: DEFAULT_MAX_BATCH_ROWS, skipTokenSecret: '' }): EndpointHandler<'sql'> {
  const skipTokens = new SkipTokenSealer(settings.skipTokenSecret);
  return (ctx) => {
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    if (method !== 'GET' && method !== 'QUERY') return write(drivers, ctx, settings);
    const env = ctx.environment;
    const driver = drivers.ready(env.name);
    if (driver) return read(ctx, driver, method, skipTokens);
    return drivers.get(env.name, env).then((started) => read(ctx, started, method, skipTokens), failed(ctx));
  };
}

async function write(drivers: SqlDrivers, ctx: HandlerContext<'sql'>, settings: SqlSettings): Promise<unknown> {
  const method = writeMethodOf(ctx.method);
  // unreachable with a valid build (the compiler keeps write methods off table-valued functions)
  if (method === null || ctx.endpoint.model.objectType === 'TableValuedFunction') {
    throw new WharfError('ROUTING_METHOD_NOT_ALLOWED', { method: ctx.method }, { headers: { allow: allowHeader(ctx.endpoint.route.methods) } });
  }
  const body = ctx.request.body;
  if (Buffer.isBuffer(body) && method !== 'DELETE') {
    throw new WharfError('REQUEST_UNSUPPORTED_MEDIA_TYPE', { contentType: mediaType(ctx.request.headers['content-type']) });
  }
  const segments = segmentsOf(ctx);
  if (segments.length > 1) throw new WharfError('SQL_NOT_FOUND', { reason: 'Not found' });
  const env = ctx.environment;
  const driver = await drivers.get(env.name, env);
  const model = ctx.endpoint.model;
  // the table's column kinds (read once per object, shared with reads): in Table mode a value of the
  // wrong JSON type is a 422 before any SQL; in both modes a key the key column cannot hold is a 404
  const columnKinds = await columnKindsFor(driver, tableRefOf(model));
  ctx.timing.start('sql');
  try {
    const scope = scopeOf(ctx);
    const response = await handleSqlWrite(scope.endpoint, {
      method,
      body: Buffer.isBuffer(body) ? undefined : body,
      pathId: segments[0] ?? null,
      query: (ctx.request.query ?? {}) as Record<string, unknown>,
      endpointPath: endpointPath(ctx.request.url, segments.length),
    }, { driver, compiler: compilerFor(env.provider), columnKinds, rowFilter: scope.rowFilter && typedRowFilter(scope.rowFilter, columnKinds), maxBatchRows: settings.maxBatchRows });
    ctx.reply.code(response.status).headers(response.headers);
    return response.body;
  } catch (error) {
    logDriverFailure(ctx, error);
    throw error;
  } finally {
    ctx.timing.end('sql');
  }
}
