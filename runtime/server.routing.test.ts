/** HTTP tests of the /api pipeline up to the handler: routing, environments, checks, methods. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointSpec } from './testing/generated-fixture.js';
import { ECHO_HANDLERS } from './testing/echo-handlers.js';
import { createTestServer } from './testing/test-server.js';
import type { TestServer } from './testing/test-server.js';

export const ROUTING_ENDPOINTS: readonly EndpointSpec[] = [
  { kind: 'sql', routePath: 'WMS/Bins', methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'MERGE', 'QUERY'] },
  { kind: 'sql', routePath: 'WMS/Inbound/StagingBins' },
  { kind: 'sql', routePath: 'Products' },
  { kind: 'sql', routePath: 'Inventory/Products', methods: ['GET', 'QUERY'] },
  { kind: 'sql', routePath: 'Reports/ByRegion', functionPathParameters: 2 },
  { kind: 'sql', routePath: 'Sales/Orders', allowedEnvironments: ['prod'] },
  { kind: 'sql', routePath: 'Maintenance/Archive', enabled: false },
  { kind: 'proxy', routePath: 'Shipping/Rates', methods: ['GET', 'POST', 'QUERY'] },
  { kind: 'composite', routePath: 'Shipping/ShipOrder', aliases: ['composite/ShipOrder'] },
  { kind: 'static', routePath: 'Content/Countries', methods: ['GET', 'QUERY'] },
  { kind: 'webhook', routePath: 'Hooks/Orders' },
  { kind: 'files', routePath: 'files/Documents/Invoices' },
];

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'MERGE' | 'QUERY';

interface Case {
  readonly method?: Method;
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly payload?: string;
  readonly status: number;
  readonly json?: unknown;
  readonly responseHeaders?: Record<string, string | undefined>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const notFound = (path: string) => ({ success: false, error: `Endpoint '${path}' not found` });
const ok = (endpoint: string, target: unknown, extra: Record<string, unknown> = {}) => ({
  endpoint,
  target,
  env: 'demo',
  method: 'GET',
  body: null,
  ...extra,
});
const collection = { kind: 'collection' };
const item = (id: string) => ({ kind: 'item', id });

const CASES: readonly [string, Case][] = [
  // route resolution
  ['longest path wins over namespace + id', { url: '/api/demo/WMS/Inbound/StagingBins', status: 200, json: ok('sql:WMS/Inbound/StagingBins', collection) }],
  ['shorter endpoint with an id', { url: '/api/demo/WMS/Bins/Inbound', status: 200, json: ok('sql:WMS/Bins', item('Inbound')) }],
  ['nested endpoint with an id', { url: '/api/demo/WMS/Inbound/StagingBins/7', status: 200, json: ok('sql:WMS/Inbound/StagingBins', item('7')) }],
  ['legacy fallback with id', { url: '/api/demo/Products/5', status: 200, json: ok('sql:Products', item('5')) }],
  ['namespaced beats legacy', { url: '/api/demo/Inventory/Products', status: 200, json: ok('sql:Inventory/Products', collection) }],
  ['case-insensitive path and environment', { url: '/api/DEMO/wms/INBOUND/stagingbins', status: 200, json: ok('sql:WMS/Inbound/StagingBins', collection) }],
  ['trailing slash ignored', { url: '/api/demo/WMS/Bins/', status: 200, json: ok('sql:WMS/Bins', collection) }],
  ['percent-decoded id', { url: '/api/demo/WMS/Bins/A%20B%C3%A9', status: 200, json: ok('sql:WMS/Bins', item('A Bé')) }],
  ['percent-encoded endpoint segment', { url: '/api/demo/%57MS/Bins', status: 200, json: ok('sql:WMS/Bins', collection) }],
  ['query string is not part of the path', { url: '/api/demo/WMS/Bins?$top=5&x=/a/b', status: 200, json: ok('sql:WMS/Bins', collection) }],
  ['proxy sub-path', { url: '/api/demo/Shipping/Rates/v1/quotes', status: 200, json: ok('proxy:Shipping/Rates', { kind: 'subpath', segments: ['v1', 'quotes'] }) }],
  ['function path parameters', { url: '/api/demo/Reports/ByRegion/EU/2024', status: 200, json: ok('sql:Reports/ByRegion', { kind: 'subpath', segments: ['EU', '2024'] }) }],
  ['too many function path segments', { url: '/api/demo/Reports/ByRegion/EU/2024/x', status: 404, json: notFound('Reports/ByRegion/EU/2024/x') }],
  ['sub-path on SQL is 404', { url: '/api/demo/WMS/Bins/5/extra', status: 404, json: notFound('WMS/Bins/5/extra') }],
  ['sub-path on static is 404', { url: '/api/demo/Content/Countries/a/b', status: 404, json: notFound('Content/Countries/a/b') }],
  ['unknown endpoint', { url: '/api/demo/Nope/Thing', status: 404, json: notFound('Nope/Thing') }],
  ['namespace alone is not an endpoint', { url: '/api/demo/WMS', status: 404, json: notFound('WMS') }],
  ['composite legacy alias', { method: 'POST', url: '/api/demo/composite/shiporder', headers: JSON_HEADERS, payload: '{"a":1}', status: 200, json: ok('composite:Shipping/ShipOrder', collection, { method: 'POST', body: { a: 1 } }) }],
  ['files route', { url: '/api/demo/files/Documents/Invoices/report.pdf', status: 200, json: ok('files:files/Documents/Invoices', item('report.pdf')) }],
  ['/api alone', { url: '/api', status: 404, json: { success: false, error: "Route 'GET /api' not found" } }],
  ['environment without endpoint', { url: '/api/demo', status: 404, json: { success: false, error: "Route 'GET /api/demo' not found" } }],
  ['outside the table', { method: 'POST', url: '/nope/x', status: 404, json: { success: false, error: "Route 'POST /nope/x' not found" } }],
  // unsafe segments
  // (`..` itself is normalized away by inject's URL parsing: start.test.ts sends it over a real socket)
  ['empty segment', { url: '/api/demo/WMS//Bins', status: 400, json: { success: false, error: "Invalid path segment: empty segment ('//') in the path." } }],
  ['encoded slash', { url: '/api/demo/WMS/Bins/a%2Fb', status: 400, json: { success: false, error: "Invalid path segment: 'a%2Fb' contains an encoded '/', '\\' or a control character." } }],
  ['malformed percent-encoding', { url: '/api/demo/WMS/Bins/%zz', status: 400, json: { success: false, error: 'Invalid request URL: malformed percent-encoding.' } }],
  // environments
  ['environment not on the allowed list', { url: '/api/staging/WMS/Bins', status: 400, json: { success: false, error: "Environment 'staging' is not allowed." } }],
  ['allowed but no folder', { url: '/api/ghost/WMS/Bins', status: 400, json: { success: false, error: "Environment 'ghost' is not configured." } }],
  ['endpoint AllowedEnvironments refuses', { url: '/api/demo/Sales/Orders', status: 400, json: { success: false, error: "Environment 'demo' is not allowed for this endpoint." } }],
  ['endpoint AllowedEnvironments accepts', { url: '/api/prod/Sales/Orders', status: 200, json: ok('sql:Sales/Orders', collection, { env: 'prod' }) }],
  // Enabled false
  ['disabled endpoint', { url: '/api/demo/Maintenance/Archive', status: 503, json: { success: false, error: 'This endpoint is temporarily disabled.' }, responseHeaders: { 'retry-after': '300' } }],
  // methods
  ['method outside the endpoint', { method: 'DELETE', url: '/api/demo/Inventory/Products/1', status: 405, json: { success: false, error: "Method 'DELETE' is not allowed for this endpoint." }, responseHeaders: { allow: 'GET, HEAD, QUERY, OPTIONS' } }],
  ['QUERY on composite', { method: 'QUERY', url: '/api/demo/Shipping/ShipOrder', headers: JSON_HEADERS, payload: '{}', status: 405, json: { success: false, error: "Method 'QUERY' is not allowed for this endpoint." }, responseHeaders: { allow: 'POST, OPTIONS' } }],
  ['QUERY on webhook', { method: 'QUERY', url: '/api/demo/Hooks/Orders/abc', headers: JSON_HEADERS, payload: '{}', status: 405, json: { success: false, error: "Method 'QUERY' is not allowed for this endpoint." }, responseHeaders: { allow: 'POST, OPTIONS' } }],
  ['GET on composite', { url: '/api/demo/Shipping/ShipOrder', status: 405, json: { success: false, error: "Method 'GET' is not allowed for this endpoint." }, responseHeaders: { allow: 'POST, OPTIONS' } }],
  ['MERGE reaches the handler', { method: 'MERGE', url: '/api/demo/WMS/Bins/5', headers: JSON_HEADERS, payload: '{"Qty":2}', status: 200, json: ok('sql:WMS/Bins', item('5'), { method: 'MERGE', body: { Qty: 2 } }) }],
  ['QUERY with JSON body', { method: 'QUERY', url: '/api/demo/Inventory/Products', headers: JSON_HEADERS, payload: '{"top":5}', status: 200, json: ok('sql:Inventory/Products', collection, { method: 'QUERY', body: { top: 5 } }) }],
  ['QUERY with empty JSON body', { method: 'QUERY', url: '/api/demo/Inventory/Products', headers: JSON_HEADERS, status: 200, json: ok('sql:Inventory/Products', collection, { method: 'QUERY' }) }],
  ['QUERY with text/plain', { method: 'QUERY', url: '/api/demo/Inventory/Products', headers: { 'content-type': 'text/plain' }, payload: 'top=5', status: 415, json: { success: false, error: 'QUERY requires Content-Type: application/json' } }],
  ['QUERY without Content-Type', { method: 'QUERY', url: '/api/demo/Inventory/Products', status: 415, json: { success: false, error: 'QUERY requires Content-Type: application/json' } }],
  ['QUERY on static', { method: 'QUERY', url: '/api/demo/Content/Countries', headers: { 'content-type': 'application/json; charset=utf-8' }, payload: '{}', status: 200, json: ok('static:Content/Countries', collection, { method: 'QUERY', body: {} }) }],
];

describe('/api routing and checks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ generated: { endpoints: ROUTING_ENDPOINTS }, handlers: ECHO_HANDLERS });
  });
  afterAll(async () => server.close());

  it.each(CASES)('%s', async (_name, c) => {
    const response = await server.inject({
      method: c.method ?? 'GET',
      url: c.url,
      headers: c.headers ?? {},
      ...(c.payload !== undefined ? { payload: c.payload } : {}),
    });
    expect(response.statusCode).toBe(c.status);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual(c.json);
    for (const [name, value] of Object.entries(c.responseHeaders ?? {})) {
      expect(response.headers[name]).toBe(value);
    }
  });

  it('HEAD is served where GET is, without a body', async () => {
    const response = await server.inject({ method: 'HEAD', url: '/api/demo/WMS/Bins' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });

  it('OPTIONS answers 204 with Allow', async () => {
    const response = await server.inject({ method: 'OPTIONS', url: '/api/demo/Shipping/Rates' });
    expect(response.statusCode).toBe(204);
    expect(response.headers['allow']).toBe('GET, HEAD, POST, QUERY, OPTIONS');
    expect(response.body).toBe('');
  });

  it('sends no Server-Timing unless Server:ServerTiming is on (the default is off)', async () => {
    for (const url of ['/api/demo/WMS/Bins', '/api/demo/Nope']) {
      const response = await server.inject({ method: 'GET', url });
      expect(response.headers['server-timing']).toBeUndefined();
    }
  });

  describe('with Server:ServerTiming on', () => {
    let timed: TestServer;
    beforeAll(async () => {
      timed = await createTestServer({ generated: { endpoints: ROUTING_ENDPOINTS }, handlers: ECHO_HANDLERS, env: { Server__ServerTiming: 'true' } });
    });
    afterAll(async () => timed.close());

    it('Server-Timing lists every stage that ran, in order', async () => {
      const response = await timed.inject({ method: 'GET', url: '/api/demo/WMS/Bins' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['server-timing']).toMatch(
        /^parse;dur=\d+\.\d{3}, env;dur=\d+\.\d{3}, resolve;dur=\d+\.\d{3}, access;dur=\d+\.\d{3}, authorize;dur=\d+\.\d{3}, enabled;dur=\d+\.\d{3}, method;dur=\d+\.\d{3}, body;dur=\d+\.\d{3}, cache;dur=\d+\.\d{3}, handler;dur=\d+\.\d{3}$/,
      );
      const failed = await timed.inject({ method: 'GET', url: '/api/demo/Nope' });
      expect(failed.statusCode).toBe(404);
      expect(failed.headers['server-timing']).toMatch(/^parse;dur=[\d.]+, env;dur=[\d.]+, resolve;dur=[\d.]+$/);
    });
  });

  // Every URL under /api needs a token, whatever the method, environment or endpoint: the 401 comes
  // before routing, so it says nothing about which endpoints or environments exist.
  const WITHOUT_TOKEN: readonly [string, Method, string][] = [
    ['/api alone', 'GET', '/api'],
    ['unknown environment', 'GET', '/api/staging/WMS/Bins'],
    ['unknown endpoint', 'GET', '/api/demo/Nope'],
    ...ROUTING_ENDPOINTS.map((endpoint): [string, Method, string] => [
      endpoint.routePath,
      endpoint.methods?.[0] ?? (endpoint.kind === 'composite' || endpoint.kind === 'webhook' ? 'POST' : 'GET'),
      `/api/demo/${endpoint.routePath}`,
    ]),
    ['OPTIONS', 'OPTIONS', '/api/demo/Shipping/Rates'],
    ['/health (protected by the spec)', 'GET', '/health'],
  ];
  it.each(WITHOUT_TOKEN)('without a token: %s answers 401', async (_name, method, url) => {
    const response = await server.app.inject({ method, url });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ success: false, error: 'Authentication required' });
  });

  it.each(['/health/live', '/openapi.json', '/docs'])('%s stays open without a token', async (url) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['www-authenticate']).toBeUndefined();
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('an unknown token answers 401 invalid_token', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/demo/WMS/Bins',
      headers: { authorization: 'Bearer wharf_not-a-real-token' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(response.json()).toEqual({ success: false, error: 'Invalid or expired token' });
  });
});
