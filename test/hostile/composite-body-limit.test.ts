/**
 * Composite step answers read into memory: a step's upstream body was read whole whatever its size
 * (a Proxy endpoint buffers at most Proxy:BufferLimitBytes and answers 502 beyond it), and the
 * results of every step and array element were kept for the final answer, so one request could
 * make the gateway hold any amount (a caller's input selecting a huge upstream answer, or a
 * thousand-element array). Now all step answers of one request together are read up to
 * Proxy:BufferLimitBytes (here 1 MiB); beyond it the upstream body is cut and the step fails, 502.
 * A step body that breaks off half-way is the step failing too (502), not a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompositeStep } from '../../runtime/contract/model.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { proxy, proxyServer } from '../proxy/proxy-server.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../proxy/scripted-upstream.js';
import { startUpstream, type Upstream } from '../proxy/upstream-server.js';

let upstream: Upstream;
let broken: ScriptedUpstream;
let server: TestServer;

function step(name: string, target: string, fields: Partial<CompositeStep> = {}): CompositeStep {
  return { name, endpoint: target, targetId: `proxy:${target}`, method: 'POST', isArray: false, arrayProperty: null, sourceProperty: null, dependsOn: null, templateTransformations: {}, ...fields };
}

beforeAll(async () => {
  upstream = await startUpstream();
  // announces 1,000 bytes, sends 10 and closes the connection
  broken = await startScriptedUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"partial"');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  const o = upstream.origin;
  server = await proxyServer(
    [
      proxy('S/Huge', { url: `${o}/stream?chunks=40` }, ['POST']),
      proxy('S/Quarter', { url: `${o}/stream?chunks=4` }, ['POST']),
      proxy('S/Small', { url: `${o}/stream?chunks=2` }, ['POST']),
      proxy('S/Broken', { url: `${broken.origin}/broken` }, ['POST']),
      { kind: 'composite', routePath: 'S/OneHuge', overrides: { steps: [step('Huge', 'S/Huge')] } },
      { kind: 'composite', routePath: 'S/ManyQuarters', overrides: { steps: [step('Quarters', 'S/Quarter', { isArray: true, arrayProperty: 'items' })] } },
      { kind: 'composite', routePath: 'S/TwoSmall', overrides: { steps: [step('A', 'S/Small'), step('B', 'S/Small')] } },
      { kind: 'composite', routePath: 'S/BreaksOff', overrides: { steps: [step('A', 'S/Small'), step('Broken', 'S/Broken')] } },
    ],
    { BufferLimitBytes: 1024 * 1024 },
  );
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
  await broken?.close();
});

const post = (route: string, payload: unknown) =>
  server.inject({ method: 'POST', url: `/api/demo/${route}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

describe('Composite step answers beyond Proxy:BufferLimitBytes: 502, the upstream body cut', () => {
  it.each([
    ['one step answering 2.5 MiB', 'S/OneHuge', {}, 'Huge'],
    ['ten array elements answering 256 KiB each', 'S/ManyQuarters', { items: Array.from({ length: 10 }, () => ({})) }, 'Quarters'],
  ])('%s', async (_name, route, payload, failing) => {
    const aborted = upstream.streams.aborted;
    const res = await post(route, payload);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ success: false, error: `Error executing step '${failing}'`, step: failing, statusCode: 502, completedSteps: [] });
    await expect.poll(() => upstream.streams.aborted).toBeGreaterThan(aborted);
  });

  it('an upstream body that breaks off is the step failing (502), not a server error', async () => {
    const res = await post('S/BreaksOff', {});
    expect(res.json()).toMatchObject({ success: false, error: "Error executing step 'Broken'", step: 'Broken', statusCode: 502, completedSteps: ['A'] });
    expect(res.statusCode).toBe(502);
  });

  it('answers within the budget still come back whole', async () => {
    const res = await post('S/TwoSmall', {});
    expect(res.statusCode).toBe(200);
    const results = (res.json() as { stepResults: Record<string, string> }).stepResults;
    expect([results['A']?.length, results['B']?.length]).toEqual([128 * 1024, 128 * 1024]);
  });
});
