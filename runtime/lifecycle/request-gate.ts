/**
 * The gate every request passes first: while the server drains it answers 503
 * SERVER_SHUTTING_DOWN (with Connection: close) instead of fastify's own 503 body; it bounds the
 * requests in flight (503 SERVER_OVERLOADED above Server:MaxConcurrentRequests); and it keeps the
 * replies in flight, so a shutdown that reaches its deadline can answer each of them with the
 * project's error body before the process exits (errors/error-handler.ts writes every body).
 *
 * It also enforces Server:HandlerTimeoutSeconds: one timer for the whole server sweeps the requests
 * in flight and answers those older than the limit with 503 SERVER_HANDLER_TIMEOUT, a tenth of the
 * limit late at most (at most a second). Once a response is under way the limit bounds how long it
 * stands still, not its length: a long download that keeps moving is never cut (issue 23 item 9). fastify's own handlerTimeout does the same with an
 * AbortController, a timer and a listener per request, about 5 µs of CPU on every request
 * (docs/performance.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorResponseFor, sendErrorResponse } from '../errors/error-handler.js';
import { WharfError } from '../errors/wharf-error.js';
import { asteriskForm } from './asterisk-form.js';
import { InFlight } from './in-flight.js';
import { missingHost } from './require-host.js';
import { observeResponses } from './response-observers.js';
import { startSweep } from './sweep.js';

const RETRY = { 'retry-after': '1' } as const;

export class RequestGate {
  #closing = false;
  #lastResponses = false;
  /**
   * performance.now() of the last drain activity: the gate closing, a request refused while
   * closing, or a request in flight finishing while closing (its client reconnects at once).
   */
  #lastActivity = 0;
  readonly #inFlight = new InFlight();
  #sweeper: NodeJS.Timeout | null = null;
  /** Responses under way: the bytes written on their connection when last seen to move, and when. */
  readonly #progress = new WeakMap<FastifyRequest, { written: number; at: number }>();

  /** `maxConcurrent` 0 = no bound; `handlerTimeoutMs` 0 = no handler timeout. */
  constructor(
    readonly maxConcurrent: number,
    readonly handlerTimeoutMs = 0,
  ) {}

  get closing(): boolean {
    return this.#closing;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * From now on every new request is refused with SERVER_SHUTTING_DOWN, and every request in flight
   * answers with Connection: close, so no keep-alive connection is left idle to be cut.
   */
  close(): void {
    this.#closing = true;
    this.#lastActivity = performance.now();
    for (const [, reply] of this.#inFlight.entries()) if (!reply.raw.headersSent) reply.header('connection', 'close');
  }

  /**
   * Shutdown after the port closed: requests are still served, but every answer (in flight and new,
   * on a connection accepted before) carries Connection: close, so the keep-alive connections end.
   */
  lastResponses(): void {
    this.#lastResponses = true;
    for (const [, reply] of this.#inFlight.entries()) if (!reply.raw.headersSent) reply.header('connection', 'close');
  }

  /**
   * Resolves when no request is in flight and, for `quietMs`, none has arrived or finished (polled;
   * used while draining, so clients that were just told to go away, or whose last answer came with
   * Connection: close, have reconnected and been refused before the port closes).
   */
  async drained(quietMs = 0, pollMs = 20): Promise<void> {
    while (this.#inFlight.size > 0 || performance.now() - this.#lastActivity < quietMs) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** Admits a request, or returns the error that refuses it. */
  admit(request: FastifyRequest, reply: FastifyReply): WharfError | null {
    if (this.#closing) {
      this.#lastActivity = performance.now();
      reply.header('connection', 'close');
      return new WharfError('SERVER_SHUTTING_DOWN', {}, { headers: RETRY });
    }
    if (this.maxConcurrent > 0 && this.#inFlight.size >= this.maxConcurrent) {
      return new WharfError('SERVER_OVERLOADED', {}, { headers: RETRY });
    }
    this.#inFlight.add(request, reply);
    if (this.#lastResponses) reply.header('connection', 'close');
    if (this.handlerTimeoutMs > 0 && this.#sweeper === null) {
      this.#sweeper = startSweep(this.handlerTimeoutMs, () => this.sweep());
    }
    return null;
  }

  /**
   * Answers each request in flight for longer than the handler timeout with SERVER_HANDLER_TIMEOUT
   * through the error handler; a response already under way cannot become an error body, so its
   * connection is cut instead. Returns how many. (The timer calls it; tests call it directly.)
   */
  sweep(): number {
    if (this.handlerTimeoutMs <= 0) return 0;
    let count = 0;
    for (const [request, reply] of this.#inFlight.entries()) {
      if (reply.sent) continue;
      if (reply.raw.headersSent) {
        if (!this.#standsStill(request, reply)) continue;
        count += 1;
        this.#inFlight.delete(request);
        reply.raw.destroy(new WharfError('SERVER_HANDLER_TIMEOUT'));
      } else if (reply.elapsedTime >= this.handlerTimeoutMs) {
        count += 1;
        reply.send(new WharfError('SERVER_HANDLER_TIMEOUT')); // its onResponse takes it out of the map
      }
    }
    return count;
  }

  /**
   * A response under way (a download, a stream) is timed by its progress, not its length: true when
   * no byte has gone out on its connection for the handler timeout (the first sweep that sees it
   * starts the clock). A client that reads slowly keeps it moving; one that stops reading does not.
   */
  #standsStill(request: FastifyRequest, reply: FastifyReply): boolean {
    const written = reply.raw.socket?.bytesWritten ?? 0;
    const now = performance.now();
    const seen = this.#progress.get(request);
    if (seen === undefined || seen.written !== written) {
      this.#progress.set(request, { written, at: now });
      return false;
    }
    return now - seen.at >= this.handlerTimeoutMs;
  }

  /** Stops the handler-timeout timer (the server closed). */
  stop(): void {
    if (this.#sweeper !== null) clearInterval(this.#sweeper);
    this.#sweeper = null;
  }

  done(request: FastifyRequest): void {
    if (this.#inFlight.delete(request) && this.#closing) this.#lastActivity = performance.now();
  }

  /** Shutdown deadline: answers every request still in flight with SERVER_SHUTTING_DOWN. Returns how many. */
  cutOff(): number {
    let count = 0;
    for (const [request, reply] of this.#inFlight.entries()) {
      this.#inFlight.delete(request);
      if (reply.sent || reply.raw.headersSent) continue;
      reply.header('connection', 'close');
      const error = new WharfError('SERVER_SHUTTING_DOWN', {}, { headers: RETRY });
      sendErrorResponse(reply, errorResponseFor(reply.request, error));
      count += 1;
    }
    return count;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    requestGate: RequestGate;
  }
}

/**
 * Installs the gate as the first onRequest hook (call it before any other hook). The same hook then
 * refuses an HTTP/1.1 request without a Host header (require-host.ts) and answers or refuses an
 * asterisk-form target (`OPTIONS *`, asterisk-form.ts): one fastify hook, not three.
 */
export function installRequestGate(app: FastifyInstance, maxConcurrent: number, handlerTimeoutMs = 0): RequestGate {
  const gate = new RequestGate(maxConcurrent, handlerTimeoutMs);
  app.decorate('requestGate', gate);
  app.decorateRequest('wharfInFlightSlot', -1);
  app.addHook('onRequest', (request, reply, done) => {
    const refused = gate.admit(request, reply) ?? missingHost(request.raw) ?? asteriskForm(request, reply);
    if (refused === 'answered') return;
    if (refused) done(refused);
    else done();
  });
  observeResponses(app, (request) => gate.done(request));
  app.addHook('onRequestAbort', (request, done) => {
    gate.done(request);
    done();
  });
  app.addHook('preClose', (done) => {
    gate.close();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    gate.stop();
    done();
  });
  return gate;
}
