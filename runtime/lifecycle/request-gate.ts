/**
 * The gate every request passes first: while the server drains it answers 503
 * SERVER_SHUTTING_DOWN (with Connection: close) instead of fastify's own 503 body; it bounds the
 * requests in flight (503 SERVER_OVERLOADED above Server:MaxConcurrentRequests); and it keeps the
 * replies in flight, so a shutdown that reaches its deadline can answer each of them with the
 * project's error body before the process exits (errors/error-handler.ts writes every body).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorResponseFor, sendErrorResponse } from '../errors/error-handler.js';
import { WharfError } from '../errors/wharf-error.js';

const RETRY = { 'retry-after': '1' } as const;

export class RequestGate {
  #closing = false;
  /**
   * performance.now() of the last drain activity: the gate closing, a request refused while
   * closing, or a request in flight finishing while closing (its client reconnects at once).
   */
  #lastActivity = 0;
  readonly #inFlight = new Map<FastifyRequest, FastifyReply>();

  /** `maxConcurrent` 0 = no bound. */
  constructor(readonly maxConcurrent: number) {}

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
    for (const reply of this.#inFlight.values()) if (!reply.raw.headersSent) reply.header('connection', 'close');
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
    this.#inFlight.set(request, reply);
    return null;
  }

  done(request: FastifyRequest): void {
    if (this.#inFlight.delete(request) && this.#closing) this.#lastActivity = performance.now();
  }

  /** Shutdown deadline: answers every request still in flight with SERVER_SHUTTING_DOWN. Returns how many. */
  cutOff(): number {
    let count = 0;
    for (const [request, reply] of this.#inFlight) {
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

/** Installs the gate as the first onRequest hook (call it before any other hook). */
export function installRequestGate(app: FastifyInstance, maxConcurrent: number): RequestGate {
  const gate = new RequestGate(maxConcurrent);
  app.decorate('requestGate', gate);
  app.addHook('onRequest', (request, reply, done) => {
    const refused = gate.admit(request, reply);
    if (refused) done(refused);
    else done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    gate.done(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    gate.done(request);
    done();
  });
  app.addHook('preClose', (done) => {
    gate.close();
    done();
  });
  return gate;
}
