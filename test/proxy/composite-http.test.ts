/** Composite endpoints through the running server against the loopback echo upstream. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompositeStep } from '../../runtime/contract/model.js';
import { proxy, proxyServer } from './proxy-server.js';
import { startUpstream } from './upstream-server.js';
import type { Upstream } from './upstream-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { TEST_TOKEN_USERNAME, createTestServer } from '../../runtime/testing/test-server.js';

let upstream: Upstream;
let server: TestServer;

function step(name: string, target: string, fields: Partial<CompositeStep> = {}): CompositeStep {
  return {
    name,
    endpoint: target,
    targetId: `proxy:${target}`,
    method: 'POST',
    isArray: false,
    arrayProperty: null,
    sourceProperty: null,
    dependsOn: null,
    templateTransformations: {},
    ...fields,
  };
}

const shipOrder = [
  step('CreateShipment', 'Shipping/Shipments', {
    sourceProperty: 'shipment',
    templateTransformations: { requestId: '$requestid', reference: '$guid', env: '$context.environment', user: '$context.username' },
  }),
  step('PrintLabels', 'Shipping/Labels', {
    isArray: true,
    arrayProperty: 'parcels',
    dependsOn: 'CreateShipment',
    templateTransformations: { shipmentPath: '$prev.CreateShipment.path', firstHeader: '$prev.CreateShipment.body', reference: '$guid' },
  }),
  step('Notify', 'Shipping/Notify', { dependsOn: 'CreateShipment', templateTransformations: { label0: '$prev.PrintLabels.0.path', note: 'literal' } }),
];

beforeAll(async () => {
  upstream = await startUpstream();
  const o = upstream.origin;
  server = await proxyServer([
    proxy('Shipping/Shipments', { url: `${o}/echo/shipments`, responseTransforms: { remove: ['headers'], rename: {}, mask: [] } }, ['POST']),
    proxy('Shipping/Labels', { url: `${o}/echo/labels` }, ['POST']),
    proxy('Shipping/Notify', { url: `${o}/echo/notify` }, ['POST']),
    proxy('Shipping/Broken', { url: `${o}/status/409` }, ['POST']),
    proxy('Shipping/Down', { url: `${o}/status/503` }, ['POST']),
    proxy('Shipping/Moved', { url: `${o}/redirect` }, ['POST']),
    proxy('Shipping/Refused', { url: `${o}/status/401` }, ['POST']),
    proxy('Shipping/Cookies', { url: `${o}/echo/cookies`, forwardCookies: true }, ['POST']),
    { ...proxy('Shipping/Switched', { url: `${o}/echo/switched` }, ['POST']), enabled: false },
    { ...proxy('Shipping/ProdOnly', { url: `${o}/echo/prod-only` }, ['POST']), allowedEnvironments: ['prod'] },
    { kind: 'composite', routePath: 'Shipping/ShipOrder', aliases: ['composite/ShipOrder'], overrides: { steps: shipOrder } },
    { kind: 'composite', routePath: 'Shipping/FailsSecond', overrides: { steps: [step('First', 'Shipping/Labels'), step('Second', 'Shipping/Broken'), step('Third', 'Shipping/Labels')] } },
    { kind: 'composite', routePath: 'Shipping/Unreachable', overrides: { steps: [step('Only', 'Shipping/Down')] } },
    { kind: 'composite', routePath: 'Shipping/CallsDisabled', overrides: { steps: [step('First', 'Shipping/Labels'), step('Off', 'Shipping/Switched')] } },
    { kind: 'composite', routePath: 'Shipping/CallsProdOnly', overrides: { steps: [step('First', 'Shipping/Labels'), step('Prod', 'Shipping/ProdOnly')] } },
    { kind: 'composite', routePath: 'Shipping/Credentials', overrides: { steps: [step('Echo', 'Shipping/Cookies', { templateTransformations: { ip: '$context.clientIp' } })] } },
    { kind: 'composite', routePath: 'Shipping/RefusedUpstream', overrides: { steps: [step('Refused', 'Shipping/Refused')] } },
    { kind: 'composite', routePath: 'Shipping/Redirected', overrides: { steps: [step('Moved', 'Shipping/Moved'), step('After', 'Shipping/Labels')] } },
    { kind: 'composite', routePath: 'Shipping/BadPrev', overrides: { steps: [step('A', 'Shipping/Labels'), step('B', 'Shipping/Labels', { templateTransformations: { x: '$prev.A.nothing.here' } })] } },
  ]);
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

interface Echo {
  path: string;
  body: string;
  headers: Record<string, string>;
}

const post = (url: string, payload: unknown) =>
  server.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

describe('Composite', () => {
  it('runs three steps in order: SourceProperty, an array step with $prev, DependsOn, templates', async () => {
    const res = await post('/api/demo/Shipping/ShipOrder', { shipment: { to: 'Utrecht' }, parcels: [{ kg: 1 }, { kg: 2 }] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { success: boolean; stepResults: Record<string, unknown> };
    expect(body.success).toBe(true);
    const created = body.stepResults['CreateShipment'] as Echo;
    expect(created.headers).toBeUndefined(); // Shipments' ResponseTransforms remove it in the final response only
    const sent = JSON.parse(created.body) as Record<string, string>;
    expect(sent).toMatchObject({ to: 'Utrecht', env: 'demo', user: TEST_TOKEN_USERNAME });
    expect(sent['requestId']).toMatch(/^[0-9a-f-]{36}$/);
    const labels = body.stepResults['PrintLabels'] as Echo[];
    expect(labels.map((l) => l.path)).toEqual(['/echo/labels', '/echo/labels']);
    const label0 = JSON.parse(labels[0]!.body) as Record<string, unknown>;
    expect(label0).toEqual({ kg: 1, shipmentPath: '/echo/shipments', firstHeader: JSON.stringify({ to: 'Utrecht', requestId: sent['requestId'], reference: sent['reference'], env: 'demo', user: TEST_TOKEN_USERNAME }), reference: sent['reference'] });
    expect((JSON.parse(labels[1]!.body) as { kg: number }).kg).toBe(2);
    // the upstream never sees the caller's token
    expect(labels[0]!.headers['authorization']).toBeUndefined();
    const notify = JSON.parse((body.stepResults['Notify'] as Echo).body) as Record<string, unknown>;
    expect(notify['label0']).toBe('/echo/labels');
    expect(notify['note']).toBe('literal');
    expect(notify['path']).toBe('/echo/shipments'); // DependsOn: the step's input is CreateShipment's result
  });

  it('is reachable on the legacy composite/{name} route; other methods and QUERY answer 405', async () => {
    const res = await post('/api/demo/composite/ShipOrder', { shipment: {}, parcels: [{ kg: 5 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { stepResults: Record<string, unknown> }).stepResults['PrintLabels']).toHaveLength(1);
    for (const method of ['GET', 'QUERY', 'PUT'] as const) {
      const refused = await server.inject({ method, url: '/api/demo/Shipping/ShipOrder', headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(refused.statusCode).toBe(405);
      expect(refused.headers['allow']).toBe('POST, OPTIONS');
    }
  });

  it.each([
    ['a body that is not an object', [1, 2], [{ field: 'body', message: 'The request body must be a JSON object (Content-Type: application/json)' }]],
    ['a missing SourceProperty', { parcels: [] }, [{ field: 'shipment', message: "'shipment' is required" }]],
    ['an ArrayProperty that is not an array', { shipment: {}, parcels: { kg: 1 } }, [{ field: 'parcels', message: "'parcels' must be an array" }]],
    ['an array element that is not an object', { shipment: {}, parcels: [3] }, [{ field: 'parcels.0', message: 'parcels.0 must be a JSON object for TemplateTransformations' }]],
  ])('answers 422 with details for %s', async (_name, payload, details) => {
    const res = await post('/api/demo/Shipping/ShipOrder', payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ success: false, error: 'Validation failed', details });
  });

  it('answers 422 when a $prev path resolves to nothing', async () => {
    const res = await post('/api/demo/Shipping/BadPrev', {});
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ success: false, error: 'Validation failed', details: [{ field: 'B.x', message: '$prev.A.nothing.here resolved to nothing' }] });
  });

  it('stops at a failing step: upstream 4xx passes through with the step name and completed steps', async () => {
    const before = upstream.hits.get('/echo/labels') ?? 0;
    const res = await post('/api/demo/Shipping/FailsSecond', {});
    expect(res.statusCode).toBe(409);
    const body = res.json() as { traceId: string };
    expect(body).toEqual({ success: false, error: "Error executing step 'Second'", step: 'Second', statusCode: 409, completedSteps: ['First'], traceId: body.traceId });
    expect((upstream.hits.get('/echo/labels') ?? 0) - before).toBe(1); // Third never ran
  });

  it('a step whose upstream redirects failed (502; the redirect is not followed), the flow stops (was: 200 with the step result null)', async () => {
    const before = upstream.hits.get('/echo/labels') ?? 0;
    const res = await post('/api/demo/Shipping/Redirected', {});
    expect(res.statusCode).toBe(502);
    const body = res.json() as { traceId: string };
    expect(body).toEqual({ success: false, error: "Error executing step 'Moved'", step: 'Moved', statusCode: 502, completedSteps: [], traceId: body.traceId });
    expect((upstream.hits.get('/echo/labels') ?? 0) - before).toBe(0); // After never ran
    expect(upstream.hits.get('/echo/target')).toBeUndefined(); // not followed
  });

  it('a step upstream answering 401 is a 502, not a 401 that says the caller\'s token is invalid', async () => {
    const res = await post('/api/demo/Shipping/RefusedUpstream', {});
    expect(res.statusCode).toBe(502);
    expect(res.headers['www-authenticate']).toBeUndefined();
    const body = res.json() as { traceId: string };
    expect(body).toEqual({ success: false, error: "Error executing step 'Refused'", step: 'Refused', statusCode: 502, completedSteps: [], traceId: body.traceId });
  });

  it('a step endpoint with Enabled false, or not allowed in this environment, is refused as a direct call is, before any step runs (was: called anyway)', async () => {
    const before = upstream.hits.get('/echo/labels') ?? 0;
    const disabled = await post('/api/demo/Shipping/CallsDisabled', {});
    expect(disabled.statusCode).toBe(503);
    expect(disabled.headers['retry-after']).toBeDefined();
    expect(disabled.json()).toEqual({ success: false, error: 'This endpoint is temporarily disabled.' });
    const elsewhere = await post('/api/demo/Shipping/CallsProdOnly', {});
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toEqual({ success: false, error: "Environment 'demo' is not allowed for this endpoint." });
    expect(upstream.hits.get('/echo/switched')).toBeUndefined();
    expect(upstream.hits.get('/echo/prod-only')).toBeUndefined();
    expect((upstream.hits.get('/echo/labels') ?? 0) - before).toBe(0); // no step ran
  });

  it('the caller\'s credentials and headers never reach a step, even one whose endpoint forwards cookies', async () => {
    const res = await server.inject({
      method: 'POST',
      url: '/api/demo/Shipping/Credentials?api_key=k&x=1',
      headers: {
        'content-type': 'application/json',
        cookie: 'session=caller-session',
        'proxy-authorization': 'Basic Y2FsbGVyOnB3',
        'x-api-key': 'caller-key',
        'x-forwarded-for': '203.0.113.9',
        'x-request-id': 'caller-chosen',
      },
      payload: JSON.stringify({ note: 'hi' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const echo = (res.json() as { stepResults: { Echo: Echo & { query: string } } }).stepResults.Echo;
    expect(echo.query).toBe('');
    for (const name of ['authorization', 'cookie', 'proxy-authorization', 'x-api-key']) expect(echo.headers[name], name).toBeUndefined();
    expect(echo.headers['x-forwarded-for']).not.toContain('203.0.113.9');
    expect(echo.headers['x-request-id']).not.toBe('caller-chosen');
    expect(JSON.parse(echo.body)).toEqual({ note: 'hi', ip: echo.headers['x-forwarded-for'] });
  });

  it('answers 502 when a step upstream is unreachable', async () => {
    const res = await post('/api/demo/Shipping/Unreachable', {});
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ success: false, error: "Error executing step 'Only'", step: 'Only', statusCode: 502, completedSteps: [] });
  });
});

describe('Composite fan-out is bounded', () => {
  it('refuses an array step with more than Proxy:CompositeMaxArrayItems (default 1000) items with 422 before any step runs', async () => {
    const before = [upstream.hits.get('/echo/shipments') ?? 0, upstream.hits.get('/echo/labels') ?? 0];
    const parcels = Array.from({ length: 1001 }, () => ({ kg: 1 }));
    const res = await post('/api/demo/Shipping/ShipOrder', { shipment: {}, parcels });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      success: false,
      error: 'Validation failed',
      details: [{ field: 'parcels', message: "'parcels' has 1001 items; at most 1000 are allowed (Proxy:CompositeMaxArrayItems)" }],
    });
    expect([upstream.hits.get('/echo/shipments') ?? 0, upstream.hits.get('/echo/labels') ?? 0]).toEqual(before);
    expect((await post('/api/demo/Shipping/ShipOrder', { shipment: {}, parcels: parcels.slice(1) })).statusCode).toBe(200);
  });

  it('starts no step call after the request ended (the handler timeout answered 503); the limit is a setting', async () => {
    const o = upstream.origin;
    const fan = await createTestServer({
      generated: {
        endpoints: [
          proxy('Fan/Slow', { url: `${o}/slow?ms=150` }, ['POST']),
          { kind: 'composite', routePath: 'Fan/Out', overrides: { steps: [step('Each', 'Fan/Slow', { isArray: true, arrayProperty: 'items' })] } },
        ],
      },
      serverSettings: {
        Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] },
        RateLimiting: { Enabled: false },
        Server: { HandlerTimeoutSeconds: 1 },
        Proxy: { CompositeArrayConcurrency: 2, CompositeMaxArrayItems: 60 },
      },
    });
    const send = (count: number) =>
      fan.inject({ method: 'POST', url: '/api/demo/Fan/Out', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ items: Array.from({ length: count }, (_, i) => ({ i })) }) });
    try {
      expect((await send(61)).statusCode).toBe(422);
      const before = upstream.hits.get('/slow') ?? 0;
      const res = await send(60); // 30 rounds of 150 ms: far beyond the 1 s handler timeout
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ success: false, error: 'The request did not complete in time.' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const atEnd = upstream.hits.get('/slow') ?? 0;
      expect(atEnd - before).toBeLessThan(60);
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(upstream.hits.get('/slow') ?? 0).toBe(atEnd);
      expect(fan.logs.lines().filter((line) => line['event'] === 'composite.abandoned')).toMatchObject([{ traceId: expect.any(String), completedSteps: [] }]);

      // a client that goes away: the same, over a real connection
      const address = await fan.app.listen({ port: 0, host: '127.0.0.1' });
      const gone = upstream.hits.get('/slow') ?? 0;
      const client = request(`${address}/api/demo/Fan/Out`, { method: 'POST', headers: { authorization: `Bearer ${fan.token}`, 'content-type': 'application/json' } });
      client.on('error', () => undefined);
      client.end(JSON.stringify({ items: Array.from({ length: 60 }, (_, i) => ({ i })) }));
      await new Promise((resolve) => setTimeout(resolve, 400));
      client.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const atGone = upstream.hits.get('/slow') ?? 0;
      expect(atGone - gone).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(upstream.hits.get('/slow') ?? 0).toBe(atGone);
    } finally {
      await fan.close();
    }
  });
});
