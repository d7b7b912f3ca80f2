/**
 * ResponseTransforms (`Remove`, `Mask`) of a Proxy endpoint apply to a Composite's final answer
 * (spec). A Proxy call of that endpoint fails closed on a body it cannot transform
 * (test/proxy/proxy-transforms-fail-closed.test.ts); a Composite step answering the same body
 * passed it to the caller untouched, as a string: JSON with a byte order mark, XML or text naming
 * the hidden field, declared JSON that does not parse (a `NaN`), a compressed body. Every case
 * runs against a real loopback upstream through the running server.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompositeStep } from '../../runtime/contract/model.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { proxy, proxyServer } from '../proxy/proxy-server.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../proxy/scripted-upstream.js';

const ANSWERS: Record<string, { type: string; body: string; status?: number }> = {
  '/bom': { type: 'application/json', body: '\uFEFF{"name":"Ann","ssn":"123-45-6789","salary":5000}' },
  '/xml': { type: 'application/xml', body: '<person><name>Ann</name><ssn>123-45-6789</ssn></person>' },
  '/text': { type: 'text/plain', body: 'name=Ann; SSN=123-45-6789' },
  '/nan': { type: 'application/json', body: '{"name":"Ann","ssn":"123-45-6789","salary":NaN}' },
  '/plain': { type: 'text/plain', body: 'nothing hidden here' },
  '/gzip': { type: 'text/plain', body: 'name=Ann; ssn=123-45-6789' }, // sent compressed, though asked for as identity
  '/conflict': { type: 'application/json', body: '{"error":"exists","name":"Ann","ssn":"123-45-6789"}', status: 409 },
  '/refused': { type: 'text/plain', body: 'refused: SSN 123-45-6789 is blocked', status: 422 },
};

let upstream: ScriptedUpstream;
let server: TestServer;

function step(name: string, target: string, fields: Partial<CompositeStep> = {}): CompositeStep {
  return { name, endpoint: target, targetId: `proxy:${target}`, method: 'POST', isArray: false, arrayProperty: null, sourceProperty: null, dependsOn: null, templateTransformations: {}, ...fields };
}

const hidden = { remove: ['ssn'], rename: {}, mask: ['salary'] };

beforeAll(async () => {
  upstream = await startScriptedUpstream((_req, res, url) => {
    const answer = ANSWERS[url.pathname]!;
    const gzip = url.pathname === '/gzip';
    const bytes = gzip ? gzipSync(answer.body) : Buffer.from(answer.body);
    res.writeHead(answer.status ?? 200, { 'content-type': answer.type, 'content-length': bytes.length, ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    res.end(bytes);
  });
  const routes = Object.keys(ANSWERS).map((p) => p.slice(1));
  server = await proxyServer([
    ...routes.map((r) => proxy(`P/${r}`, { url: `${upstream.origin}/${r}`, responseTransforms: hidden }, ['POST'])),
    ...routes.map((r) => ({ kind: 'composite' as const, routePath: `C/${r}`, overrides: { steps: [step('Person', `P/${r}`)] } })),
    { kind: 'composite', routePath: 'C/array', overrides: { steps: [step('People', 'P/xml', { isArray: true, arrayProperty: 'items' })] } },
  ]);
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

const post = (route: string, payload: unknown = {}) =>
  server.inject({ method: 'POST', url: `/api/demo/${route}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

describe('Composite steps apply the referenced endpoint\'s ResponseTransforms failing closed, as a Proxy call does', () => {
  it('JSON with a byte order mark is transformed (was: the whole text, ssn and salary included, as a string)', async () => {
    const res = await post('C/bom');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, stepResults: { Person: { name: 'Ann', salary: '***' } } });
  });

  it.each([
    ['XML naming a removed field', 'C/xml', 'Person'],
    ['text naming it in another case', 'C/text', 'Person'],
    ['declared JSON that does not parse', 'C/nan', 'Person'],
    ['a compressed body (it cannot be searched for the field)', 'C/gzip', 'Person'],
    ['an array step whose elements answer XML naming it', 'C/array', 'People'],
  ])('%s: the step fails, 502, nothing of the body sent', async (_name, route, stepName) => {
    const res = await post(route, { items: [{}, {}] });
    expect(res.statusCode).toBe(502);
    expect(res.body).not.toContain('123-45-6789');
    const body = res.json() as { traceId: string };
    expect(body).toEqual({ success: false, error: `Error executing step '${stepName}'`, step: stepName, statusCode: 502, completedSteps: [], traceId: body.traceId });
  });

  it('text naming no hidden field still passes as it is (spec: non-JSON passes through)', async () => {
    const res = await post('C/plain');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, stepResults: { Person: 'nothing hidden here' } });
  });

  it.each([
    ['a JSON error answer: logged with the field removed', 'C/conflict', 409, '{"error":"exists","name":"Ann"}'],
    ['a text error answer naming the field: not logged', 'C/refused', 422, undefined],
  ])('a failed step\'s %s (the log is readable by every console role)', async (_name, route, status, logged) => {
    const res = await post(route);
    expect(res.statusCode).toBe(status);
    const traceId = (res.json() as { traceId: string }).traceId;
    expect(server.logs.text()).not.toContain('123-45-6789');
    const line = server.logs.lines().find((entry) => entry['event'] === 'composite.step_failed' && entry['traceId'] === traceId)!;
    expect(line['upstreamStatus']).toBe(status);
    if (logged !== undefined) expect(line['upstreamBody']).toBe(logged);
    else expect(line['upstreamBody']).toMatch(/^\(not logged/);
  });
});

