/**
 * The lists of things in flight must not keep finished items alive past young-generation
 * collections (slot-list.ts explains how a Map did: 1.6 MB promoted per scavenge under load).
 * Measured with V8's own collector: the list is moved to the old generation, then 10,000 short-lived
 * items (about 0.5 KB each, 32 in flight at a time) pass through it with a young collection every
 * 500; what the old generation grew by is what those collections promoted. A Map is the control:
 * it shows the test sees the retention on this V8.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.js';
import { SlotList } from './slot-list.js';
import { oldGenerationGrowthKb } from '../testing/old-generation.js';

interface Tracker<T> {
  add(item: T): void;
  remove(item: T): void;
}

/** KB promoted while 10,000 items pass through `tracker`, 32 in flight at a time. */
function promotedKb<T>(tracker: Tracker<T>, make: (round: number) => T): number {
  for (let i = 0; i < 200; i++) {
    const item = make(0);
    tracker.add(item);
    tracker.remove(item);
  }
  const live: T[] = [];
  return oldGenerationGrowthKb(
    (round) => {
      for (let i = 0; i < 500; i++) {
        const item = make(round);
        tracker.add(item);
        live.push(item);
        if (live.length > 32) tracker.remove(live.shift()!);
      }
    },
    { end: () => live.splice(0).forEach((item) => tracker.remove(item)) },
  );
}

const payload = (round: number): number[] => new Array<number>(64).fill(round);

describe('lists of things in flight and the garbage collector', () => {
  it('control: a Map with an insert and a delete per item promotes finished items', () => {
    const map = new Map<object, object>();
    expect(promotedKb({ add: (item: object) => map.set(item, item), remove: (item) => map.delete(item) }, (round) => ({ payload: payload(round) }))).toBeGreaterThan(2_000);
  });

  it('the request gate (InFlight) keeps no finished request alive', () => {
    const list = new InFlight();
    const reply = {} as FastifyReply;
    const kb = promotedKb<FastifyRequest>(
      { add: (request) => list.add(request, reply), remove: (request) => list.delete(request) },
      (round) => ({ payload: payload(round), wharfInFlightSlot: -1 }) as unknown as FastifyRequest,
    );
    expect(kb).toBeLessThan(500);
  });

  it('SlotList (the database driver queries in flight) keeps no finished item alive', () => {
    type Item = { payload: number[]; slot: number };
    const list = new SlotList<Item>();
    const kb = promotedKb<Item>(
      { add: (item) => (item.slot = list.add(item)), remove: (item) => list.remove(item.slot, item) },
      (round) => ({ payload: payload(round), slot: -1 }),
    );
    expect(kb).toBeLessThan(500);
  });
});
