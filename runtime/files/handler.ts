/**
 * The Files endpoint handler. Routes below `/api/{env}/files/[{namespace}/]{name}`:
 *   POST   (collection)      upload (multipart field `file`, `?overwrite=true|false`) -> 201
 *   GET    (collection)|list list (`?prefix=&$top=&$skip=`)
 *   GET    /{fileId}         download (HEAD, Range, ETag, 304)
 *   DELETE /{fileId}         delete
 * Scopes follow the method (read: GET/HEAD, write: POST/DELETE), checked before the handler.
 */
import type { FilesEndpoint } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';
import type { EndpointHandler, HandlerContext } from '../handlers/handler-context.js';
import { attachmentDisposition } from './content-disposition.js';
import { decodeFileId, encodeFileId } from './file-id.js';
import type { FileStore, StoredFile } from './file-store.js';
import { listPage, parseListQuery } from './listing.js';
import { sendFile } from './send-file.js';
import type { FileStorageSettings } from './storage-settings.js';
import { UploadAbandoned, contentTypeOf, receiveUpload } from './upload.js';

function basePath(ctx: HandlerContext<'files'>): string {
  return `/api/${ctx.environment.name}/${ctx.endpoint.model.routePath}`;
}

function itemUrl(ctx: HandlerContext<'files'>, fileId: string): string {
  return `${basePath(ctx)}/${fileId}`;
}

function nameOf(ctx: HandlerContext<'files'>, fileId: string): string {
  const name = decodeFileId(fileId, ctx.environment.name);
  if (name === null) throw new WharfError('FILES_NOT_FOUND');
  return name;
}

export function createFilesHandler(store: FileStore, settings: FileStorageSettings): EndpointHandler<'files'> {
  const directory = (ctx: HandlerContext<'files'>) => store.ensureDirectory(ctx.endpoint.model as FilesEndpoint, ctx.environment.name);

  async function list(ctx: HandlerContext<'files'>): Promise<unknown> {
    const query = parseListQuery((ctx.request.query ?? {}) as Record<string, unknown>);
    const files = await store.list(await directory(ctx));
    const env = ctx.environment.name;
    const page = listPage(files, query, `${basePath(ctx)}/list`, (file: StoredFile) => {
      const fileId = encodeFileId(env, file.name);
      return {
        fileId,
        fileName: file.name,
        contentType: contentTypeOf(file.name),
        size: file.size,
        lastModified: new Date(file.mtimeMs).toISOString(),
        url: itemUrl(ctx, fileId),
      };
    });
    ctx.reply.header('x-total-count', String(page.total));
    return page.body;
  }

  async function download(ctx: HandlerContext<'files'>, fileId: string): Promise<unknown> {
    const name = nameOf(ctx, fileId);
    const opened = await store.open(await directory(ctx), name);
    if (!opened) throw new WharfError('FILES_NOT_FOUND');
    return sendFile(ctx.request, ctx.reply, {
      handle: opened.handle,
      version: { size: opened.stats.size, mtimeMs: opened.stats.mtimeMs },
      contentType: contentTypeOf(name),
      disposition: attachmentDisposition(name),
    });
  }

  async function remove(ctx: HandlerContext<'files'>, fileId: string): Promise<unknown> {
    const name = nameOf(ctx, fileId);
    if (!(await store.remove(await directory(ctx), name))) throw new WharfError('FILES_NOT_FOUND');
    return { success: true, message: 'File deleted successfully', result: null };
  }

  async function upload(ctx: HandlerContext<'files'>): Promise<unknown> {
    let file;
    try {
      file = await receiveUpload(ctx.request, ctx.reply.raw, ctx.endpoint.model, store, () => directory(ctx), settings);
    } catch (error) {
      if (error instanceof UploadAbandoned) return ctx.reply; // answered already (handler timeout) or nobody to answer
      throw error;
    }
    const fileId = encodeFileId(ctx.environment.name, file.name);
    const url = itemUrl(ctx, fileId);
    ctx.reply.code(201).header('location', url);
    return { success: true, fileId, filename: file.name, contentType: file.contentType, size: file.size, url };
  }

  return async (ctx) => {
    const { method, target } = ctx;
    const read = method === 'GET' || method === 'HEAD';
    if (target.kind === 'collection') {
      if (read) return list(ctx);
      if (method === 'POST') return upload(ctx);
    } else if (target.kind === 'item') {
      if (read) return target.id.toLowerCase() === 'list' ? list(ctx) : download(ctx, target.id);
      if (method === 'DELETE') return remove(ctx, target.id);
    }
    throw new WharfError('FILES_NOT_FOUND');
  };
}
