/**
 * The lists of things in flight must not keep finished items alive past young-generation
 * collections (slot-list.ts explains how a Map did: 1.6 MB promoted per scavenge under load).
 * Measured with V8's own collector: the list is moved to the old generation, then 10,000 short-lived
 * items (about 0.5 KB each, 32 in flight at a time) pass through it with a young collection every
 * 500; what the old generation grew by is what those collections promoted. A Map is the control:
 * it shows the test sees the retention on this V8.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.js';
import { SlotList } from './slot-list.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

interface Tracker<T> {
  add(item: T): void;
  remove(item: T): void;
}

const oldSpaceBytes = (): number => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

/**
 * KB the old generation grew by while 10,000 items passed through `tracker`. A full collection that
 * V8 starts on its own meanwhile would shrink the old generation and hide the growth: then the
 * measurement is taken again (v8.GCProfiler tells).
 */
function promotedKb<T>(tracker: Tracker<T>, make: (round: number) => T): number {
  for (let attempt = 1; ; attempt++) {
    const profiler = new v8.GCProfiler();
    profiler.start();
    const kb = measureOnce(tracker, make);
    const unforcedFull = profiler.stop().statistics.filter((gc) => gc.gcType !== 'Scavenge').length - 2; // less our two gc()
    if (unforcedFull === 0 || attempt === 3) return kb;
  }
}

function measureOnce<T>(tracker: Tracker<T>, make: (round: number) => T): number {
  for (let i = 0; i < 200; i++) {
    const item = make(0);
    tracker.add(item);
    tracker.remove(item);
  }
  gc();
  gc(); // the tracker and its tables or arrays are in the old generation now
  const before = oldSpaceBytes();
  const live: T[] = [];
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 500; i++) {
      const item = make(round);
      tracker.add(item);
      live.push(item);
      if (live.length > 32) tracker.remove(live.shift()!);
    }
    gc({ type: 'minor' });
  }
  for (const item of live.splice(0)) tracker.remove(item);
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  return (oldSpaceBytes() - before) / 1024;
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
