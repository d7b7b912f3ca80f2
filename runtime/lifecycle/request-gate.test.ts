import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestGate } from './request-gate.js';

function fakeReply(): FastifyReply {
  const headers: Record<string, string> = {};
  return { raw: { headersSent: false }, header: (k: string, v: string) => (headers[k] = v), headers } as unknown as FastifyReply;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function resolvesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);
}

describe('RequestGate.drained(quietMs)', () => {
  it('waits the quiet window after the last request in flight finished, not only after the last refused arrival', async () => {
    const gate = new RequestGate(0);
    const request = {} as FastifyRequest;
    expect(gate.admit(request, fakeReply())).toBeNull();
    gate.close();
    await sleep(120);
    gate.done(request); // its client will reconnect at once: the port must stay open a while longer
    const drained = gate.drained(100, 5);
    expect(await resolvesWithin(drained, 50)).toBe(false);
    expect(await resolvesWithin(drained, 200)).toBe(true);
  });

  it('a request refused while closing restarts the quiet window; it gets Connection: close', async () => {
    const gate = new RequestGate(0);
    gate.close();
    await sleep(120);
    const reply = fakeReply();
    expect(gate.admit({} as FastifyRequest, reply)?.code).toBe('SERVER_SHUTTING_DOWN');
    expect((reply as unknown as { headers: Record<string, string> }).headers.connection).toBe('close');
    const drained = gate.drained(100, 5);
    expect(await resolvesWithin(drained, 50)).toBe(false);
    expect(await resolvesWithin(drained, 200)).toBe(true);
  });

  it('closing with nothing in flight still keeps the port open for the quiet window', async () => {
    const gate = new RequestGate(0);
    gate.close();
    const drained = gate.drained(100, 5);
    expect(await resolvesWithin(drained, 40)).toBe(false);
    expect(await resolvesWithin(drained, 200)).toBe(true);
  });
});

/** A reply in flight for `elapsedMs`, recording what the gate does to it. */
function agedReply(elapsedMs: number | (() => number), state: { sent?: boolean; headersSent?: boolean } = {}) {
  const seen: { sent: unknown[]; destroyed: unknown[] } = { sent: [], destroyed: [] };
  const socket = { bytesWritten: 0 };
  const reply = {
    get elapsedTime() {
      return typeof elapsedMs === 'function' ? elapsedMs() : elapsedMs;
    },
    sent: state.sent ?? false,
    raw: { headersSent: state.headersSent ?? false, socket, destroy: (error: unknown) => seen.destroyed.push(error) },
    header: () => reply,
    send(payload: unknown) {
      seen.sent.push(payload);
      reply.sent = true;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, seen, socket };
}

describe('RequestGate handler timeout (one sweeping timer, no timer per request)', () => {
  it('answers only the requests in flight for longer than the limit, once, with SERVER_HANDLER_TIMEOUT', () => {
    const gate = new RequestGate(0, 1000);
    const old = agedReply(1000);
    const young = agedReply(999);
    const done = agedReply(5000, { sent: true });
    const unknown = agedReply(Number.NaN);
    for (const { reply } of [old, young, done, unknown]) expect(gate.admit({} as FastifyRequest, reply)).toBeNull();
    expect(gate.sweep()).toBe(1);
    expect(old.seen.sent).toHaveLength(1);
    expect((old.seen.sent[0] as { code: string }).code).toBe('SERVER_HANDLER_TIMEOUT');
    expect([young.seen.sent, done.seen.sent, unknown.seen.sent]).toEqual([[], [], []]);
    expect(gate.sweep()).toBe(0); // already answered
    gate.stop();
  });

  it('cuts a response that has already started and stands still for the limit, instead of writing an error body into it', async () => {
    const gate = new RequestGate(0, 50);
    const streaming = agedReply(60, { headersSent: true });
    gate.admit({} as FastifyRequest, streaming.reply);
    expect(gate.inFlight).toBe(1);
    expect(gate.sweep()).toBe(0); // the first sweep that sees it under way starts its clock
    await sleep(120); // the gate's own timer (every 10 ms here) cuts it
    expect(streaming.seen.sent).toEqual([]);
    expect((streaming.seen.destroyed[0] as { code: string }).code).toBe('SERVER_HANDLER_TIMEOUT');
    expect(gate.inFlight).toBe(0);
    gate.stop();
  });

  it('never cuts a response under way whose connection keeps writing, however long it runs', async () => {
    const gate = new RequestGate(0, 50);
    const streaming = agedReply(60, { headersSent: true });
    gate.admit({} as FastifyRequest, streaming.reply);
    for (let i = 0; i < 25; i++) {
      streaming.socket.bytesWritten += 1000;
      expect(gate.sweep()).toBe(0);
      await sleep(10); // the gate's own timer sweeps in between too; 250 ms in all, five times the limit
    }
    expect(streaming.seen.destroyed).toEqual([]);
    expect(gate.inFlight).toBe(1);
    gate.stop();
  });

  it('the timer starts with the first request and answers within a tenth of the limit', async () => {
    const gate = new RequestGate(0, 100);
    const started = performance.now();
    const slow = agedReply(() => performance.now() - started);
    gate.admit({} as FastifyRequest, slow.reply);
    await sleep(60);
    expect(slow.seen.sent).toEqual([]);
    await sleep(150);
    expect(slow.seen.sent).toHaveLength(1);
    gate.stop();
  });

  it('without a limit nothing is ever answered', () => {
    const gate = new RequestGate(0);
    const old = agedReply(1e9);
    gate.admit({} as FastifyRequest, old.reply);
    expect(gate.sweep()).toBe(0);
  });
});
