import { describe, expect, it } from 'vitest';
import type { ProxyEndpoint } from '../contract/model.js';
import { endpointModel } from '../testing/generated-fixture.js';
import { rewritesOf } from './proxy-handler.js';

const endpoint = () => endpointModel({ kind: 'proxy', routePath: 'Orders', overrides: { url: 'http://up:9100/orders' } }) as ProxyEndpoint;

describe('rewritesOf', () => {
  it('one array per endpoint, public base and environment, built once and never stale when either changes (issue 30)', () => {
    const orders = endpoint();
    const demo = rewritesOf(orders, 'http://gw', 'demo');
    expect(demo.map((r) => r.to)).toContain('http://gw/api/demo/Orders');
    expect(rewritesOf(orders, 'http://gw', 'demo')).toBe(demo);
    const prod = rewritesOf(orders, 'http://gw', 'prod');
    expect(prod.map((r) => r.to)).toContain('http://gw/api/prod/Orders');
    expect(rewritesOf(orders, '', 'demo').map((r) => r.to)).toContain('/api/demo/Orders');
    expect(rewritesOf(orders, 'http://gw', 'demo').map((r) => r.to)).toEqual(demo.map((r) => r.to));
    // another endpoint with the same route and URL (a reload) gets its own
    expect(rewritesOf(endpoint(), 'http://gw', 'prod').map((r) => r.from)).toEqual(prod.map((r) => r.from));
  });
});
