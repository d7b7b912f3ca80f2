/**
 * GET /metrics through the running server: access (401/403/200), a strict parse of the scrape, and
 * what it counts (pool usage on a real PostgreSQL: test/operations/production-server.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import type { EndpointSpec } from '../../runtime/testing/generated-fixture.js';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const ENDPOINTS: readonly EndpointSpec[] = [{ kind: 'sql', routePath: 'Inventory/Items', methods: ['GET', 'POST'] }];

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: ENDPOINTS },
    env: { RateLimiting__TokenLimit: '4' },
    handlers: ECHO_HANDLERS,
  });
});
afterAll(async () => server.close());

describe('/metrics', () => {
  it('needs a token with scope *: 401 without one, 403 for a narrower one', async () => {
    const none = await server.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ success: false, error: 'Authentication required' });
    const { token } = await gatewayOf(server.app).access.tokens.create({ username: 'reader', allowedScopes: 'Inventory/*' });
    const narrow = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(narrow.statusCode).toBe(403);
    expect(narrow.json()).toEqual({ success: false, error: "Token is not allowed to call GET on '/metrics'" });
  });

  it('scrapes cleanly and counts requests by endpoint, method and status, latency and rate-limit rejections', async () => {
    for (let i = 0; i < 3; i += 1) expect((await server.inject({ method: 'GET', url: '/api/demo/Inventory/Items' })).statusCode).toBe(200);
    expect((await server.inject({ method: 'GET', url: '/api/demo/Nowhere' })).statusCode).toBe(404);
    expect((await server.inject({ method: 'GET', url: '/api/demo/Inventory/Items' })).statusCode).toBe(429);
    const scrape = await server.inject({ method: 'GET', url: '/metrics' });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const families = parsePrometheusText(scrape.body);
    const items = { endpoint: 'sql:Inventory/Items', method: 'GET' };
    expect(sampleValue(families, 'wharf_http_requests_total', { ...items, status: '200' })).toBe(3);
    expect(sampleValue(families, 'wharf_http_requests_total', { endpoint: '/api/*', method: 'GET', status: '404' })).toBe(1);
    expect(sampleValue(families, 'wharf_http_requests_total', { endpoint: '/api/*', method: 'GET', status: '429' })).toBe(1);
    expect(sampleValue(families, 'wharf_http_requests_total', { endpoint: '/metrics', method: 'GET', status: '403' })).toBe(1);
    expect(sampleValue(families, 'wharf_http_request_duration_seconds_count', items)).toBe(3);
    expect(sampleValue(families, 'wharf_http_request_duration_seconds_bucket', { ...items, le: '+Inf' })).toBe(3);
    expect(sampleValue(families, 'wharf_rate_limit_rejections_total', { resource: 'token' })).toBe(1);
    // the response cache answered the second and third read
    expect(sampleValue(families, 'wharf_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(sampleValue(families, 'wharf_cache_lookups_total', { result: 'hit' })).toBe(2);
    expect(families.get('wharf_http_requests_in_flight')?.type).toBe('gauge');
    expect(families.get('wharf_db_pool_connections')?.type).toBe('gauge');
    expect(families.get('wharf_cache_lookups_total')?.type).toBe('counter');
    expect(families.get('process_resident_memory_bytes')?.samples[0]?.value).toBeGreaterThan(0);
  });

  it('the parser refuses what promtool refuses', () => {
    expect(() => parsePrometheusText('x 1\n')).toThrow('sample x without a TYPE');
    expect(() => parsePrometheusText('# TYPE x counter\nx{a="1} 1\n')).toThrow('bad labels');
    expect(() => parsePrometheusText('# TYPE x counter\nx 1\nx 2\n')).toThrow('duplicate series');
    expect(() =>
      parsePrometheusText('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'),
    ).toThrow('buckets not cumulative');
  });
});
