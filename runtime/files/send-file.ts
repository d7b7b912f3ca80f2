/**
 * Sends an open file from disk: validators, 304, 206 / 416, HEAD without a body. The bytes are
 * streamed from the file handle (never read into memory); the handle is closed when the stream
 * ends, fails or is not used. Shared by Files downloads and raw Static content. Every answer says
 * X-Content-Type-Options: nosniff: an uploaded file is served as its stored type, never sniffed
 * into HTML or script by a browser.
 */
import type { FileHandle } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WharfError } from '../errors/wharf-error.js';
import { decideRange, etagFor, lastModifiedFor } from './byte-range.js';
import type { FileVersion } from './byte-range.js';

export interface SendFileOptions {
  readonly handle: FileHandle;
  readonly version: FileVersion;
  readonly contentType: string;
  /** Full Content-Disposition value, or null for none. */
  readonly disposition: string | null;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export async function sendFile(request: FastifyRequest, reply: FastifyReply, options: SendFileOptions): Promise<FastifyReply> {
  const { handle, version } = options;
  let handed = false;
  try {
    const decision = decideRange(
      {
        ifNoneMatch: header(request, 'if-none-match'),
        ifModifiedSince: header(request, 'if-modified-since'),
        range: header(request, 'range'),
        ifRange: header(request, 'if-range'),
      },
      version,
    );
    reply.header('x-content-type-options', 'nosniff');
    reply.header('etag', etagFor(version));
    reply.header('last-modified', lastModifiedFor(version));
    reply.header('accept-ranges', 'bytes');
    if (decision.kind === 'not-modified') return reply.code(304).send();
    if (decision.kind === 'unsatisfiable') {
      throw new WharfError('FILES_RANGE_NOT_SATISFIABLE', { size: version.size }, {
        headers: { 'content-range': `bytes */${version.size}` },
      });
    }
    const [start, end] = decision.kind === 'partial' ? [decision.start, decision.end] : [0, version.size - 1];
    const length = version.size === 0 ? 0 : end - start + 1;
    reply.header('content-type', options.contentType);
    if (options.disposition !== null) reply.header('content-disposition', options.disposition);
    if (decision.kind === 'partial') {
      reply.code(206).header('content-range', `bytes ${start}-${end}/${version.size}`);
    }
    reply.header('content-length', length);
    if (request.method === 'HEAD' || length === 0) return reply.send();
    handed = true;
    return reply.send(handle.createReadStream({ start, end, highWaterMark: 256 * 1024 }));
  } finally {
    if (!handed) await handle.close();
  }
}
