/**
 * undici's `request()` for the upstream calls, with a cheaper body for the usual small response.
 * `request()` wraps every response body in a Readable stream (an AsyncResource handler, a stream,
 * `bytes()` through its consume machinery); a small proxied JSON answer (94 B) paid about 5 µs of CPU
 * for that (measured with 32 connections against a loopback upstream, docs/performance.md). Here a
 * response that announces a Content-Length of at most SMALL_BODY_BYTES (not to HEAD) gets a
 * SmallBody: its chunks are kept in an array and handed over whole. Every other response is handed
 * to undici's own RequestHandler at its headers, so streaming bodies behave exactly as with
 * `request()` (backpressure, `dump()`, destroy aborts the request).
 *
 * Same contract as `request()`: the promise settles at the response headers; a body that breaks off
 * later (upstream gone, body timeout, client gone) rejects `bytes()`/`text()` with undici's error.
 * The client-gone signal aborts the upstream request, before or after the headers.
 *
 * undici exposes RequestHandler and parseHeaders only through its internal files (version pinned
 * in package.json; test/proxy covers both bodies).
 */
import type { Dispatcher } from 'undici';

/** Bodies announced at most this long are read whole (proxy-response.ts sends them with a Content-Length). */
export const SMALL_BODY_BYTES = 64 * 1024;

type Abort = (reason?: Error) => void;

interface UndiciHandler {
  onConnect(abort: Abort, context?: unknown): void;
  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean | void;
  onData(chunk: Buffer): boolean | void;
  onComplete(trailers: Buffer[] | null): void;
  onError(error: Error): void;
}

interface UndiciInternals {
  readonly RequestHandler: new (
    options: Dispatcher.RequestOptions,
    callback: (error: Error | null, data: Dispatcher.ResponseData) => void,
  ) => UndiciHandler;
  readonly parseHeaders: (raw: Buffer[], into?: Record<string, string | string[]>) => Record<string, string | string[]>;
  readonly abortError: () => Error;
}

/** undici's internals this module needs (loaded with the agent, on the first upstream request). */
export async function loadUndiciInternals(): Promise<UndiciInternals> {
  // non-literal specifiers: undici ships no types for its internal files
  const api = ['undici/lib/api/api-request.js', 'undici/lib/core/util.js', 'undici/lib/core/errors.js'];
  const [request, util, errors] = (await Promise.all(api.map((name) => import(name)))) as [
    { default: { RequestHandler: UndiciInternals['RequestHandler'] } },
    { default: { parseHeaders: UndiciInternals['parseHeaders'] } },
    { default: { RequestAbortedError: new () => Error } },
  ];
  const Aborted = errors.default.RequestAbortedError;
  return { RequestHandler: request.default.RequestHandler, parseHeaders: util.default.parseHeaders, abortError: () => new Aborted() };
}

/** The body of a small response: what proxy-response.ts, failover.ts, Composite and the health check read of a body. */
class SmallBody {
  #chunks: Buffer[] = [];
  #size = 0;
  #ended = false;
  #error: Error | null = null;
  #waiting: { resolve: (bytes: Buffer) => void; reject: (error: Error) => void } | null = null;

  constructor(private readonly cancel: (reason: Error) => void) {}

  push(chunk: Buffer): boolean {
    if (this.#error === null) {
      this.#chunks.push(chunk);
      this.#size += chunk.length;
    }
    return true;
  }

  end(): void {
    this.#ended = true;
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.resolve(this.#whole());
  }

  /** The body broke off (or was cancelled): a reader waiting or to come gets `error`. */
  fail(error: Error): void {
    if (this.#ended || this.#error !== null) return;
    this.#error = error;
    this.#chunks = [];
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting?.reject(error);
  }

  #whole(): Buffer {
    const chunks = this.#chunks;
    this.#chunks = [];
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size);
  }

  /** The whole body when it has already arrived (a small answer usually comes with its headers), else null: no promise. */
  takeIfComplete(): Buffer | null {
    return this.#ended && this.#error === null ? this.#whole() : null;
  }

  bytes(): Promise<Buffer> {
    if (this.#error !== null) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve(this.#whole());
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  text(): Promise<string> {
    return this.bytes().then((bytes) => bytes.toString('utf8'));
  }

  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }

  /** Waits for the rest of the body and drops it (as undici's dump() does for a body under its limit). */
  dump(): Promise<null> {
    return this.bytes().then(() => null);
  }

  /** Stops reading: the upstream request is aborted unless the body is complete. */
  destroy(error?: Error): this {
    if (!this.#ended && this.#error === null) {
      const reason = error ?? new Error('The upstream response body was destroyed before it ended.');
      this.fail(reason);
      this.cancel(reason);
    }
    return this;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    const bytes = await this.bytes();
    if (bytes.length > 0) yield bytes;
  }
}

type Signal = NonNullable<Dispatcher.RequestOptions['signal']> & {
  aborted: boolean;
  reason?: unknown;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
};

class SmallFirstHandler implements UndiciHandler {
  #abort: Abort | null = null;
  #small: SmallBody | null = null;
  /** undici's own handler, once the response turned out not to be small. */
  #delegate: UndiciHandler | null = null;
  #settled = false;
  #reason: Error | null = null;
  readonly #onAbort: (() => void) | null = null;

  constructor(
    private readonly internals: UndiciInternals,
    private readonly options: Dispatcher.RequestOptions,
    private readonly resolve: (data: Dispatcher.ResponseData) => void,
    private readonly reject: (error: Error) => void,
  ) {
    const signal = options.signal as Signal | undefined | null;
    if (signal?.aborted) this.#reason = reasonOf(signal, internals);
    else if (signal) {
      this.#onAbort = () => this.#aborted(reasonOf(signal, internals));
      signal.addEventListener('abort', this.#onAbort);
    }
  }

  #aborted(reason: Error): void {
    this.#reason = reason;
    this.#stopListening();
    if (this.#small !== null) this.#small.destroy(reason);
    else this.#abort?.(reason);
  }

  #stopListening(): void {
    if (this.#onAbort !== null) (this.options.signal as Signal).removeEventListener('abort', this.#onAbort);
  }

  onConnect(abort: Abort, context?: unknown): void {
    if (this.#delegate !== null) return this.#delegate.onConnect(abort, context);
    if (this.#reason !== null) {
      abort(this.#reason);
      return;
    }
    this.#abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean | void {
    if (this.#delegate !== null) return this.#delegate.onHeaders(statusCode, rawHeaders, resume, statusText);
    if (statusCode < 200) return undefined; // 1xx: the final response follows
    const headers = this.internals.parseHeaders(rawHeaders);
    const announced = headers['content-length'];
    const length = typeof announced === 'string' ? Number(announced) : Number.NaN;
    if (this.options.method === 'HEAD' || !(length <= SMALL_BODY_BYTES)) return this.#handOver(statusCode, rawHeaders, resume, statusText);
    const abort = this.#abort!;
    const body = new SmallBody((reason) => abort(reason));
    this.#small = body;
    this.#settled = true;
    this.resolve({ statusCode, statusText, headers, trailers: {}, opaque: null, body: body as unknown as Dispatcher.ResponseData['body'], context: {} });
    return undefined;
  }

  /** A body to stream: undici's RequestHandler takes the request over from its headers on. */
  #handOver(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean | void {
    this.#stopListening(); // undici's handler listens to the signal itself
    const delegate = new this.internals.RequestHandler(this.options, (error, data) => (error ? this.reject(error) : this.resolve(data)));
    this.#delegate = delegate;
    this.#settled = true;
    delegate.onConnect(this.#abort!);
    return delegate.onHeaders(statusCode, rawHeaders, resume, statusText);
  }

  onData(chunk: Buffer): boolean | void {
    if (this.#delegate !== null) return this.#delegate.onData(chunk);
    return this.#small!.push(chunk);
  }

  onComplete(trailers: Buffer[] | null): void {
    if (this.#delegate !== null) return this.#delegate.onComplete(trailers);
    this.#stopListening();
    this.#small?.end();
  }

  onError(error: Error): void {
    if (this.#delegate !== null) return this.#delegate.onError(error);
    this.#stopListening();
    if (!this.#settled) {
      this.#settled = true;
      this.reject(error);
    }
    this.#small?.fail(error);
  }
}

/** The reason undici's own handler would give: the signal's, else a RequestAbortedError. */
function reasonOf(signal: Signal, internals: UndiciInternals): Error {
  return (signal.reason ?? internals.abortError()) as Error;
}

/**
 * The body's bytes when it is a SmallBody that has already arrived whole, else null (read it with
 * `bytes()`). Taking them consumes the body.
 */
export function completeBody(body: Dispatcher.ResponseData['body']): Buffer | null {
  return body instanceof SmallBody ? body.takeIfComplete() : null;
}

/** `dispatcher.request(options)`, with a SmallBody for a small response (see above). */
export function smallFirstRequest(dispatcher: Dispatcher, internals: UndiciInternals, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new SmallFirstHandler(internals, options, resolve, reject) as unknown as Dispatcher.DispatchHandler);
  });
}
