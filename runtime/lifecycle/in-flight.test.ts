import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.js';

const request = (): FastifyRequest => ({}) as FastifyRequest;
const reply = (): FastifyReply => ({}) as FastifyReply;

describe('InFlight', () => {
  it('counts, lists and removes requests; a request not in flight is not removed twice', () => {
    const list = new InFlight();
    const [a, b, c] = [request(), request(), request()];
    const replies = [reply(), reply(), reply()];
    list.add(a, replies[0]!);
    list.add(b, replies[1]!);
    list.add(c, replies[2]!);
    expect(list.size).toBe(3);
    expect(list.delete(b)).toBe(true);
    expect(list.delete(b)).toBe(false);
    expect(list.delete(request())).toBe(false);
    expect(list.size).toBe(2);
    expect([...list.entries()]).toEqual([
      [a, replies[0]],
      [c, replies[2]],
    ]);
  });

  it('reuses the slot of a finished request and keeps the others where they are', () => {
    const list = new InFlight();
    const [a, b, c] = [request(), request(), request()];
    list.add(a, reply());
    list.add(b, reply());
    list.delete(a);
    list.add(c, reply());
    expect((c as FastifyRequest & { wharfInFlightSlot: number }).wharfInFlightSlot).toBe(0);
    expect((b as FastifyRequest & { wharfInFlightSlot: number }).wharfInFlightSlot).toBe(1);
    expect([...list.entries()].map(([r]) => r)).toEqual([c, b]);
  });

  it('a request that reuses a slot is not confused with the one that had it before', () => {
    const list = new InFlight();
    const [a, b] = [request(), request()];
    list.add(a, reply());
    list.delete(a);
    list.add(b, reply());
    (a as FastifyRequest & { wharfInFlightSlot: number }).wharfInFlightSlot = 0; // a stale slot number
    expect(list.delete(a)).toBe(false);
    expect(list.size).toBe(1);
  });

  it('every request can be taken out while iterating (the shutdown cut-off does)', () => {
    const list = new InFlight();
    const requests = Array.from({ length: 5 }, request);
    for (const r of requests) list.add(r, reply());
    const seen: FastifyRequest[] = [];
    for (const [r] of list.entries()) {
      seen.push(r);
      list.delete(r);
    }
    expect(seen).toEqual(requests);
    expect(list.size).toBe(0);
    expect([...list.entries()]).toEqual([]);
  });
});
