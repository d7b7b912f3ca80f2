/**
 * Upload: the multipart field `file` streams into a temp file in the endpoint's directory; the
 * size limit is enforced on the stream (the write stops at the first byte over it); the temp file
 * is fsynced and then moved into place (file-store commit). Any failure removes the temp file.
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import mime from 'mime-types';
import type { FilesEndpoint } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';
import { checkExtension, sanitizeFileName } from './file-name.js';
import type { FileStore } from './file-store.js';
import type { FileStorageSettings } from './storage-settings.js';

/** Room for multipart boundaries and headers when the Content-Length is checked up front. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

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

/**
 * busboy's errors for a body that is not valid multipart ("Multipart: Boundary not found",
 * "Unexpected end of multipart data", "Malformed part header") are plain Errors with no code: the
 * client's fault, 400. @fastify/multipart's own errors carry FST_ codes and statuses (the error
 * handler keeps them), file system errors carry errno codes (a server fault).
 */
function malformed(error: unknown): unknown {
  if (error instanceof Error && !(error instanceof WharfError) && (error as NodeJS.ErrnoException).code === undefined) {
    return new WharfError('FILES_MALFORMED_MULTIPART', { reason: error.message });
  }
  return error;
}

export async function receiveUpload(
  request: FastifyRequest,
  endpoint: FilesEndpoint,
  store: FileStore,
  dir: () => Promise<string>,
  settings: FileStorageSettings,
): Promise<UploadedFile> {
  const overwrite = parseOverwrite((request.query as Record<string, unknown>).overwrite);
  if (!request.isMultipart()) throw new WharfError('FILES_MISSING_FILE_PART');
  const limit = endpoint.maxFileSizeBytes ?? settings.maxFileSizeBytes;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit + MULTIPART_OVERHEAD_BYTES) throw tooLarge(limit);

  const part = await request.file({ limits: { fileSize: limit, files: 1, parts: 50 }, throwFileSizeLimit: false }).catch((error: unknown) => {
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
  try {
    part.file.once('limit', () => part.file.destroy(tooLarge(limit)));
    let readError: unknown = null;
    part.file.once('error', (error) => (readError = error));
    await pipeline(part.file, createWriteStream(temp, { flags: 'wx' })).catch((error: unknown) => {
      throw error === readError ? malformed(error) : error;
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
    committed = await store.commit(temp, directory, name, overwrite);
    if (!committed) throw new WharfError('FILES_ALREADY_EXISTS', { name });
    return { name, size, contentType: contentTypeOf(name) };
  } finally {
    if (!committed) await fs.rm(temp, { force: true });
  }
}
