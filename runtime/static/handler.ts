/**
 * The Static endpoint handler.
 *   Accept excluding the content type -> 406 with the spec text.
 *   No query options (or EnableFiltering off, or content that is not JSON/XML/CSV): the file's bytes
 *   from disk with Content-Type, ETag, Last-Modified, 304, HEAD and Range (files/send-file.ts).
 *   EnableFiltering with `$` options, or QUERY: OData evaluated in memory; JSON answers in the paging
 *   envelope, XML as XML, CSV as CSV; X-Total-Records always, Content-Location for QUERY.
 *   QUERY without EnableFiltering: the equivalent GET's answer (with Content-Location); a body asking
 *   for options is a 400 like `$` options on the GET.
 */
import fs from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import type { StaticEndpoint } from '../contract/model.js';
import { staticFormatOf } from '../contract/static-format.js';
import { WharfError } from '../errors/wharf-error.js';
import { lastModifiedFor } from '../files/byte-range.js';
import { sendFile } from '../files/send-file.js';
import type { EndpointHandler, HandlerContext } from '../handlers/handler-context.js';
import { optionPrefix, readUrl } from '../sql/links.js';
import { ODataError } from '../sql/odata/errors.js';
import type { RawOptions } from '../sql/odata/options.js';
import { optionsFromQueryBody, optionsFromQueryString } from '../sql/read-request.js';
import type { StaticContentCache } from './content-cache.js';
import { accepts } from './negotiate.js';
import { toCsv, toXml } from './serialize.js';
import { runStaticQuery, shapeRows } from './static-query.js';
import type { StaticRuleView } from './static-query.js';
import { bindRowFilter } from '../auth/rules/row-filter.js';
import type { FilterExpr } from '../sql/odata/ast.js';

/** The request's Authorization rule, claims bound; null when no rule restricts rows or columns. */
function ruleView(ctx: HandlerContext<'static'>, dataset: StaticDataset | null): StaticRuleView | null {
  const rule = ctx.request.wharfRule;
  if (!rule || (rule.rowFilterAst === null && rule.columns === null)) return null;
  const first = dataset?.columns[0] ?? 'id';
  const claims = ctx.request.wharfAccess?.principal?.claims ?? {};
  return {
    rowFilter: rule.rowFilterAst === null ? null : bindRowFilter(rule.rowFilterAst as FilterExpr, claims, { kind: 'member', name: first, column: first }),
    columns: rule.columns,
  };
}
import { hasTransforms } from '../transforms/response-transforms.js';
import type { StaticDataset, StaticFormat, StaticRow } from '../contract/static-content.js';

function serialized(
  ctx: HandlerContext<'static'>,
  model: StaticEndpoint,
  format: Exclude<StaticFormat, 'json'>,
  rows: readonly StaticRow[],
  columns: readonly string[],
  dataset: StaticDataset,
): string {
  ctx.reply.header('content-type', `${model.contentType.split(';')[0]}; charset=utf-8`);
  return format === 'csv' ? toCsv(rows, columns) : toXml(rows, columns, dataset);
}

function pathOf(url: string): string {
  return (url.split('?')[0] ?? url).replace(/\/+$/, '');
}

const FILTERING_OFF = 'Query options are not supported: this Static endpoint has EnableFiltering off';

function hasOptions(query: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(query).some((key) => key.startsWith('$'));
}

export function createStaticHandler(projectRoot: string, cache: StaticContentCache): EndpointHandler<'static'> {
  async function raw(ctx: HandlerContext<'static'>, file: string, model: StaticEndpoint): Promise<unknown> {
    let handle;
    try {
      handle = await fs.open(file, constants.O_RDONLY);
    } catch (error) {
      throw new WharfError('STATIC_CONTENT_UNAVAILABLE', { file: model.contentFile, reason: (error as NodeJS.ErrnoException).code ?? 'unreadable' });
    }
    const stats = await handle.stat().catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    return sendFile(ctx.request, ctx.reply, {
      handle,
      version: { size: stats.size, mtimeMs: stats.mtimeMs },
      contentType: model.contentType,
      disposition: null,
    });
  }

  async function filtered(ctx: HandlerContext<'static'>, file: string, model: StaticEndpoint): Promise<unknown> {
    const format = staticFormatOf(model.contentType)!;
    const query = (ctx.request.query ?? {}) as Record<string, unknown>;
    let options: RawOptions;
    let result;
    const { dataset, version } = await cache.dataset(file, model.contentFile, format);
    try {
      options = ctx.method === 'QUERY' ? optionsFromQueryBody(ctx.request.body, query) : optionsFromQueryString(query);
      result = runStaticQuery(dataset, options, model.responseTransforms, ruleView(ctx, dataset));
    } catch (error) {
      if (error instanceof ODataError) throw new WharfError('STATIC_BAD_REQUEST', { reason: error.message });
      throw error;
    }
    const endpointPath = pathOf(ctx.request.url);
    const prefix = optionPrefix(options);
    ctx.reply.header('x-total-records', String(result.total));
    ctx.reply.header('last-modified', lastModifiedFor(version));
    if (ctx.method === 'QUERY') ctx.reply.header('content-location', readUrl(endpointPath, prefix, result.top, result.skip, {}));
    if (format !== 'json') return serialized(ctx, model, format, result.rows, result.columns, dataset);
    return {
      success: true,
      count: result.rows.length,
      value: result.rows,
      nextLink: result.hasMore ? readUrl(endpointPath, prefix, result.top, result.skip + result.top, {}) : null,
    };
  }

  /** Content with ResponseTransforms and no query options: every record, transformed, in the source format. */
  async function transformed(ctx: HandlerContext<'static'>, file: string, model: StaticEndpoint): Promise<unknown> {
    const format = staticFormatOf(model.contentType)!;
    const { dataset, version } = await cache.dataset(file, model.contentFile, format);
    const { rows, columns } = shapeRows(dataset.rows, dataset.columns, model.responseTransforms);
    ctx.reply.header('last-modified', lastModifiedFor(version));
    if (format !== 'json') return serialized(ctx, model, format, rows, columns, dataset);
    ctx.reply.header('content-type', model.contentType);
    return JSON.stringify(dataset.wrapperKey === null ? rows : { [dataset.wrapperKey]: rows });
  }

  return async (ctx) => {
    const model = ctx.endpoint.model;
    if (ctx.target.kind !== 'collection') throw new WharfError('STATIC_NOT_FOUND', { path: pathOf(ctx.request.url) });
    const accept = ctx.request.headers.accept;
    if (!accepts(accept, model.contentType)) {
      throw new WharfError('STATIC_NOT_ACCEPTABLE', { contentType: model.contentType, accept: accept ?? '' });
    }
    const file = path.resolve(projectRoot, model.contentFile);
    const query = (ctx.request.query ?? {}) as Record<string, unknown>;
    const filterable = staticFormatOf(model.contentType) !== null;
    const canFilter = model.enableFiltering && filterable;
    if (canFilter && (ctx.method === 'QUERY' || hasOptions(query))) return filtered(ctx, file, model);
    // an Authorization rule with RowFilter or Columns: the records it leaves, never the whole file
    if (ruleView(ctx, null) !== null) {
      if (!filterable) throw new WharfError('STATIC_BAD_REQUEST', { reason: 'Authorization rules need JSON, XML or CSV content' });
      if (hasOptions(query)) throw new WharfError('STATIC_BAD_REQUEST', { reason: FILTERING_OFF });
      return filtered(ctx, file, model);
    }
    if (hasOptions(query)) throw new WharfError('STATIC_BAD_REQUEST', { reason: FILTERING_OFF });
    if (ctx.method === 'QUERY') {
      // The spec's matrix: Static supports QUERY. Without filtering it answers like the equivalent
      // GET; a body asking for options is refused like `$` options on the GET.
      let options: RawOptions;
      try {
        options = optionsFromQueryBody(ctx.request.body, query);
      } catch (error) {
        if (error instanceof ODataError) throw new WharfError('STATIC_BAD_REQUEST', { reason: error.message });
        throw error;
      }
      if (Object.keys(options).length > 0) throw new WharfError('STATIC_BAD_REQUEST', { reason: FILTERING_OFF });
      ctx.reply.header('content-location', pathOf(ctx.request.url));
    }
    if (filterable && hasTransforms(model.responseTransforms)) return transformed(ctx, file, model);
    return raw(ctx, file, model);
  };
}
