/**
 * The Static endpoint handler.
 *   Accept excluding the content type -> 406 with the spec text.
 *   No query options (or EnableFiltering off, or content that is not JSON/XML/CSV): the file's bytes
 *   from disk with Content-Type, ETag, Last-Modified, 304, HEAD and Range (files/send-file.ts).
 *   EnableFiltering with `$` options, or QUERY: OData evaluated in memory; JSON answers in the paging
 *   envelope, XML as XML, CSV as CSV; X-Total-Records always, Content-Location for QUERY.
 */
import fs from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import type { StaticEndpoint } from '../contract/model.js';
import { staticFormatOf } from '../contract/static-content.js';
import { WharfError } from '../errors/wharf-error.js';
import { lastModifiedFor } from '../files/byte-range.js';
import { sendFile } from '../files/send-file.js';
import type { EndpointHandler, HandlerContext } from '../handlers/handler-context.js';
import { optionPrefix, readUrl } from '../sql/links.js';
import { ODataError } from '../sql/odata/errors.js';
import { NO_HIDDEN } from '../sql/odata/hidden-columns.js';
import type { RawOptions } from '../sql/odata/options.js';
import { optionsFromQueryBody, optionsFromQueryString } from '../sql/read-request.js';
import type { StaticContentCache } from './content-cache.js';
import { accepts } from './negotiate.js';
import { toCsv, toXml } from './serialize.js';
import { runStaticQuery } from './static-query.js';

function pathOf(url: string): string {
  return (url.split('?')[0] ?? url).replace(/\/+$/, '');
}

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
      result = runStaticQuery(dataset, options, NO_HIDDEN);
    } catch (error) {
      if (error instanceof ODataError) throw new WharfError('STATIC_BAD_REQUEST', { reason: error.message });
      throw error;
    }
    const endpointPath = pathOf(ctx.request.url);
    const prefix = optionPrefix(options);
    ctx.reply.header('x-total-records', String(result.total));
    ctx.reply.header('last-modified', lastModifiedFor(version));
    if (ctx.method === 'QUERY') ctx.reply.header('content-location', readUrl(endpointPath, prefix, result.top, result.skip, {}));
    if (format === 'csv') {
      ctx.reply.header('content-type', `${model.contentType.split(';')[0]}; charset=utf-8`);
      return toCsv(result.rows, result.columns);
    }
    if (format === 'xml') {
      ctx.reply.header('content-type', `${model.contentType.split(';')[0]}; charset=utf-8`);
      return toXml(result.rows, result.columns, dataset);
    }
    return {
      success: true,
      count: result.rows.length,
      value: result.rows,
      nextLink: result.hasMore ? readUrl(endpointPath, prefix, result.top, result.skip + result.top, {}) : null,
    };
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
    const canFilter = model.enableFiltering && staticFormatOf(model.contentType) !== null;
    if (canFilter && (ctx.method === 'QUERY' || hasOptions(query))) return filtered(ctx, file, model);
    if (hasOptions(query)) {
      throw new WharfError('STATIC_BAD_REQUEST', { reason: 'Query options are not supported: this Static endpoint has EnableFiltering off' });
    }
    return raw(ctx, file, model);
  };
}
