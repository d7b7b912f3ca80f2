/**
 * Holds the current route table. `swap` replaces it atomically; a request reads `current` once at
 * its start and keeps that reference to the end, so a swap never affects requests in flight.
 */
import type { RouteTable } from './route-table.js';

export class RouteTableHolder {
  #current: RouteTable;

  constructor(initial: RouteTable) {
    this.#current = initial;
  }

  get current(): RouteTable {
    return this.#current;
  }

  /** Installs `next`; returns the table it replaced. */
  swap(next: RouteTable): RouteTable {
    const previous = this.#current;
    this.#current = next;
    return previous;
  }
}
