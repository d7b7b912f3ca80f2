/**
 * The requests in flight (the request gate's list): slots in two arrays, reused through a list of
 * free slots, each request remembering its slot. Finishing a request clears its slot.
 *
 * Why not a `Map<request, reply>`: a Map with an insert and a delete per request is rehashed every
 * few dozen requests, and V8 keeps each replaced table pointing at its successor and at the
 * requests it held. Once one of those tables was promoted to the old generation, every later table
 * and every request in it survived the next young-generation collection through that dead table
 * and was promoted too, to be freed only by a full collection: measured under the SQL bench's load,
 * 1.6 MB promoted per scavenge and 3.3 ms scavenges instead of 0.15 MB and 1 ms
 * (docs/performance.md). The arrays here are overwritten in place, so a finished request is
 * garbage at once.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Its slot in the request gate's list while in flight, else -1. */
    wharfInFlightSlot: number;
  }
}

/** The slot property, for requests made without the decorator (unit tests). */
type Slotted = FastifyRequest & { wharfInFlightSlot?: number };

export class InFlight {
  readonly #requests: (FastifyRequest | undefined)[] = [];
  readonly #replies: (FastifyReply | undefined)[] = [];
  readonly #free: number[] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  add(request: FastifyRequest, reply: FastifyReply): void {
    const slot = this.#free.pop() ?? this.#requests.length;
    this.#requests[slot] = request;
    this.#replies[slot] = reply;
    (request as Slotted).wharfInFlightSlot = slot;
    this.#size += 1;
  }

  /** Takes the request out; false when it was not in flight. */
  delete(request: FastifyRequest): boolean {
    const slot = (request as Slotted).wharfInFlightSlot ?? -1;
    if (slot < 0 || this.#requests[slot] !== request) return false;
    this.#requests[slot] = undefined;
    this.#replies[slot] = undefined;
    (request as Slotted).wharfInFlightSlot = -1;
    this.#free.push(slot);
    this.#size -= 1;
    return true;
  }

  /** Each request in flight with its reply (taking one out while iterating is fine). */
  *entries(): Generator<readonly [FastifyRequest, FastifyReply]> {
    for (let slot = 0; slot < this.#requests.length; slot++) {
      const request = this.#requests[slot];
      const reply = this.#replies[slot];
      if (request !== undefined && reply !== undefined) yield [request, reply];
    }
  }
}
