/**
 * The requests in flight (the request gate's list), each remembering its slot in a SlotList
 * (slot-list.ts: why not a Map). Finishing a request empties its slot.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SlotList } from './slot-list.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Its slot in the request gate's list while in flight, else -1. */
    wharfInFlightSlot: number;
  }
}

/** The slot property, for requests made without the decorator (unit tests). */
type Slotted = FastifyRequest & { wharfInFlightSlot?: number };

interface Entry {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

export class InFlight {
  readonly #entries = new SlotList<Entry>();

  get size(): number {
    return this.#entries.size;
  }

  add(request: FastifyRequest, reply: FastifyReply): void {
    (request as Slotted).wharfInFlightSlot = this.#entries.add({ request, reply });
  }

  /** Takes the request out; false when it was not in flight. */
  delete(request: FastifyRequest): boolean {
    const slot = (request as Slotted).wharfInFlightSlot ?? -1;
    const entry = slot >= 0 ? this.#entries.at(slot) : undefined;
    if (entry === undefined || entry.request !== request) return false;
    this.#entries.remove(slot, entry);
    (request as Slotted).wharfInFlightSlot = -1;
    return true;
  }

  /** Each request in flight with its reply (taking one out while iterating is fine). */
  *entries(): Generator<readonly [FastifyRequest, FastifyReply]> {
    for (const entry of this.#entries.values()) yield [entry.request, entry.reply];
  }
}
