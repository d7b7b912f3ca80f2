/**
 * A request body must arrive in time: after Server:BodyTimeoutSeconds of grace it must keep arriving
 * at Server:MinBodyBytesPerSecond on average (0 = the whole body within the grace time). A body
 * that announces more than it sends (or trickles) ends with 408 REQUEST_BODY_TIMEOUT in the
 * project's error body and the connection is closed. Requests without a body are not touched.
 * Multipart uploads are not touched either: @fastify/multipart reads `request.raw` itself, so a
 * second reader piped from it would never be consumed and would stall the upload; Files endpoints
 * bound uploads by size while streaming, and Node's requestTimeout bounds the whole request.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WharfError } from '../errors/wharf-error.js';

export interface BodyTimeoutOptions {
  readonly graceMs: number;
  readonly minBytesPerSecond: number;
}

const CHECK_EVERY_MS = 1000;

class TimedBody extends Transform {
  received = 0;
  readonly #started = performance.now();
  #timer: NodeJS.Timeout;

  constructor(private readonly options: BodyTimeoutOptions) {
    super();
    this.#timer = setTimeout(() => this.#check(), options.graceMs);
    this.#timer.unref();
  }

  #check(): void {
    const seconds = (performance.now() - this.#started) / 1000;
    const min = this.options.minBytesPerSecond;
    if (min === 0 || this.received / seconds < min) {
      this.destroy(new WharfError('REQUEST_BODY_TIMEOUT', {}, { headers: { connection: 'close' } }));
      return;
    }
    this.#timer = setTimeout(() => this.#check(), CHECK_EVERY_MS);
    this.#timer.unref();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    clearTimeout(this.#timer);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.#timer);
    callback(error);
  }
}

export function installBodyTimeout(app: FastifyInstance, options: BodyTimeoutOptions): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const headers = request.headers;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
      done(null, payload);
      return;
    }
    if (/^multipart\//i.test(headers['content-type'] ?? '')) {
      done(null, payload);
      return;
    }
    const timed = new TimedBody(options);
    payload.on('error', (error) => timed.destroy(error));
    // fastify may answer without reading the body (413 by Content-Length): the timer's error then
    // has no reader and must not become an uncaught exception (it took the process down). When
    // fastify reads the body, its own listener gets the error and answers 408.
    timed.on('error', () => undefined);
    done(null, payload.pipe(timed));
  });
}
