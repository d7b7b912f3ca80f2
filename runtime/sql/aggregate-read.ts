/**
 * A list read with `$apply` (aggregation) on a SQL table or view:
 *   compileAggregateRead (compile-read.ts: options, plan, compileAggregate) -> execute
 *   -> `{success, count, value, nextLink}` with the grouped rows (ResponseTransforms applied),
 * paged over the groups like any list (`$top`, `$skip`; nextLink carries `$apply` and `$orderby`).
 */
import type { SqlEndpoint } from '../contract/model.js';
import { applyTransforms, hasTransforms } from '../transforms/response-transforms.js';
import type { SqlCompiler } from './compile/compiler.js';
import { compileAggregateRead, type ReadContext } from './compile-read.js';
import { SqlDriverError, type Row, type SqlDriver } from './drivers/driver.js';
import { WharfError } from '../errors/wharf-error.js';
import { optionPrefix, readUrl } from './links.js';
import type { RawOptions } from './odata/options.js';

export interface AggregateReadInput {
  readonly endpoint: SqlEndpoint;
  readonly raw: RawOptions;
  readonly method: 'GET' | 'HEAD' | 'QUERY';
  readonly path: string;
  readonly query: Readonly<Record<string, unknown>>;
  readonly driver: SqlDriver;
  readonly compiler: SqlCompiler;
  /** Column map, kinds, page size and the rule's RowFilter (ANDed to the rows before they are grouped). */
  readonly context: ReadContext;
}

export async function readAggregate(input: AggregateReadInput): Promise<{ headers: Record<string, string>; body: unknown }> {
  const { endpoint, raw } = input;
  const { request, top, compiled: q } = compileAggregateRead(endpoint, raw, input.compiler, input.context);
  const started = performance.now();
  let rows: Row[];
  try {
    rows = await input.driver.query(q.sql, q.params);
  } catch (error) {
    if (error instanceof SqlDriverError && error.kind === 'value') throw new WharfError(input.context.rowFilter ? 'SQL_COLUMN_VALUE_INVALID' : 'SQL_APPLY_VALUE_INVALID', undefined, { cause: error });
    throw error;
  }
  const ms = performance.now() - started;
  const paged = request.apply.groupBy.length > 0;
  const hasMore = paged && top > 0 && rows.length > top;
  if (rows.length > top) rows.length = top;
  const value = hasTransforms(endpoint.responseTransforms) ? rows.map((r) => applyTransforms(r, endpoint.responseTransforms)) : rows;
  const prefix = optionPrefix(raw);
  const headers: Record<string, string> = { 'x-query-time': ms.toFixed(2) };
  if (input.method === 'QUERY') headers['content-location'] = readUrl(input.path, prefix, top, request.skip, input.query);
  return {
    headers,
    body: { success: true, count: value.length, value, nextLink: hasMore ? readUrl(input.path, prefix, top, request.skip + top, input.query) : null },
  };
}
