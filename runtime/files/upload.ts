/**
 * Upload: the multipart field `file` streams into a temp file in the endpoint's directory; the
 * size limit is enforced on the stream (the write stops at the first byte over it); the temp file
 * is fsynced and then moved into place (file-store commit). Any failure removes the temp file.
 * An upload whose response ended first (the handler timeout answered 503, the client went away)
 * stops at once: the part stream is destroyed, the temp file removed, nothing is published.
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import mime from 'mime-types';
import type { FilesEndpoint } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';
import { unsupportedCoding } from '../pipeline/content-coding.js';
import { checkExtension, sanitizeFileName } from './file-name.js';
import type { FileStore } from './file-store.js';
import type { FileStorageSettings } from './storage-settings.js';

/** Room for multipart boundaries and headers when the Content-Length is checked up front. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * Text fields of an upload are ignored (docs/files.md), yet the parser keeps each one's value in
 * memory until the request ends (1 MB each by default: 49 MB per request with 50 parts, past any
 * body limit): only this much of each is kept, the rest is read and dropped.
 */
const IGNORED_FIELD_BYTES = 1024;

export interface UploadedFile {
  readonly name: string;
  readonly size: number;
  readonly contentType: string;
}

export function contentTypeOf(name: string): string {
  return mime.lookup(name) || 'application/octet-stream';
}

function parseOverwrite(value: unknown): boolean {
  if (value === undefined || value === '') return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new WharfError('FILES_BAD_OVERWRITE');
}

function tooLarge(limit: number): WharfError {
  // the rest of the body is not read: close the connection instead of draining it
  return new WharfError('FILES_TOO_LARGE', { limit }, { headers: { connection: 'close' } });
}

/** Thrown once the response ended before the upload did; the handler answers nothing more. */
export class UploadAbandoned extends Error {
  constructor() {
    super('The response ended before the upload did.');
  }
}

/**
 * busboy's errors for a body that is not valid multipart ("Multipart: Boundary not found",
 * "Unexpected end of multipart data", "Malformed part header") are plain Errors with no code: the
 * client's fault, 400. @fastify/multipart's own errors carry FST_ codes and statuses (the error
 * handler keeps them), file system errors carry errno codes (a server fault).
 */
function malformed(error: unknown): unknown {
  if (error instanceof Error && !(error instanceof WharfError) && !(error instanceof UploadAbandoned) && (error as NodeJS.ErrnoException).code === undefined) {
    return new WharfError('FILES_MALFORMED_MULTIPART', { reason: error.message });
  }
  return error;
}

/**
 * Aborts when `response` closes (finished by someone else, e.g. the handler timeout's 503, or cut).
 * `dispose` stops listening once the upload is done.
 */
function responseEnded(response: ServerResponse): { readonly signal: AbortSignal; dispose(): void } {
  const ended = new AbortController();
  const abort = () => ended.abort(new UploadAbandoned());
  if (response.writableEnded || response.destroyed) abort();
  else response.once('close', abort);
  return { signal: ended.signal, dispose: () => response.off('close', abort) };
}

/** `promise`, or a rejection with UploadAbandoned as soon as `signal` aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export async function receiveUpload(
  request: FastifyRequest,
  response: ServerResponse,
  endpoint: FilesEndpoint,
  store: FileStore,
  dir: () => Promise<string>,
  settings: FileStorageSettings,
): Promise<UploadedFile> {
  const overwrite = parseOverwrite((request.query as Record<string, unknown>).overwrite);
  if (!request.isMultipart()) throw new WharfError('FILES_MISSING_FILE_PART');
  const coded = unsupportedCoding(request.headers['content-encoding']);
  if (coded !== null) throw coded;
  const limit = endpoint.maxFileSizeBytes ?? settings.maxFileSizeBytes;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit + MULTIPART_OVERHEAD_BYTES) throw tooLarge(limit);
  const ended = responseEnded(response);
  try {
    return await receivePart(request, overwrite, limit, endpoint, store, dir, settings, ended.signal);
  } finally {
    ended.dispose();
  }
}

async function receivePart(
  request: FastifyRequest,
  overwrite: boolean,
  limit: number,
  endpoint: FilesEndpoint,
  store: FileStore,
  dir: () => Promise<string>,
  settings: FileStorageSettings,
  ended: AbortSignal,
): Promise<UploadedFile> {
  const filePart = request.file({ limits: { fileSize: limit, files: 1, parts: 50, fieldSize: IGNORED_FIELD_BYTES }, throwFileSizeLimit: false });
  const part = await unlessAborted(filePart, ended).catch((error: unknown) => {
    // a part that arrives after all is never read: destroy it, so busboy does not wait on it
    if (ended.aborted) void filePart.then((late) => late?.file.destroy(), () => undefined);
    throw malformed(error);
  });
  if (!part || part.fieldname !== 'file' || !part.filename) throw new WharfError('FILES_MISSING_FILE_PART');
  const name = sanitizeFileName(part.filename);
  if (name === null) throw new WharfError('FILES_INVALID_NAME', { reason: 'the name is empty or longer than 255 bytes' });
  checkExtension(name, endpoint, settings.blockedExtensions);
  const directory = await dir();
  if (!overwrite && (await store.exists(directory, name))) throw new WharfError('FILES_ALREADY_EXISTS', { name });

  const temp = store.tempPathIn(directory);
  let committed = false;
  const abandon = () => part.file.destroy(ended.reason as Error);
  ended.addEventListener('abort', abandon, { once: true });
  try {
    if (ended.aborted) throw ended.reason as Error;
    part.file.once('limit', () => part.file.destroy(tooLarge(limit)));
    // busboy's error for a body cut short after the part may reach the pipeline without being
    // emitted on the part first: judged by its shape (malformed), never by where it came from
    await pipeline(part.file, createWriteStream(temp, { flags: 'wx' })).catch((error: unknown) => {
      throw malformed(error);
    });
    if (part.file.truncated) throw tooLarge(limit);
    const handle = await fs.open(temp, 'r+');
    let size: number;
    try {
      await handle.sync();
      size = (await handle.stat()).size;
    } finally {
      await handle.close();
    }
    if (ended.aborted) throw ended.reason as Error; // answered meanwhile: nothing is published
    committed = await store.commit(temp, directory, name, overwrite);
    if (!committed) throw new WharfError('FILES_ALREADY_EXISTS', { name });
    return { name, size, contentType: contentTypeOf(name) };
  } finally {
    ended.removeEventListener('abort', abandon);
    if (!committed) await fs.rm(temp, { force: true });
  }
}
