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
