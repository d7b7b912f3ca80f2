/**
 * Authorization rules on a Proxy endpoint through the running server: ForwardClaims sends the
 * caller's claims as configured headers (never the token), drops a client's forged value of such a
 * header, sends none for a missing claim; no matching rule, 403; the answer is `Cache-Control: private`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from './proxy-server.js';
import { startScriptedUpstream } from './scripted-upstream.js';
import type { ScriptedUpstream } from './scripted-upstream.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

let upstream: ScriptedUpstream;
let server: TestServer;
const tokens: Record<string, string> = {};

const AUTHORIZATION = {
  rules: [
    { scopes: ['shipping'], methods: null, rowFilter: null, rowFilterAst: null, columns: null, forwardClaims: { 'X-Caller': 'username', 'X-Missing': 'customer_id' } },
  ],
};

beforeAll(async () => {
  upstream = await startScriptedUpstream((req, res) => {
    // ?cc: the upstream marks its answer as shareable, not knowing it was made for one caller's claims
    const cc = new URL(req.url ?? '/', 'http://upstream').searchParams.get('cc');
    res.writeHead(200, { 'content-type': 'application/json', ...(cc !== null ? { 'cache-control': cc } : {}) });
    res.end(JSON.stringify({ caller: req.headers['x-caller'] ?? null, missing: req.headers['x-missing'] ?? null, authorization: req.headers.authorization ?? null }));
  });
  const step = {
    name: 'Only', endpoint: 'Claims', targetId: 'proxy:Claims', method: 'GET', isArray: false,
    arrayProperty: null, sourceProperty: null, dependsOn: null, templateTransformations: {},
  };
  server = await proxyServer([
    proxy('Claims', { url: `${upstream.origin}/claims`, authorization: AUTHORIZATION }, ['GET']),
    { kind: 'composite', routePath: 'Through', overrides: { steps: [step] } },
  ]);
  tokens['shipper'] = (await gatewayOf(server.app).access.tokens.create({ username: 'shipper', allowedScopes: 'shipping' })).token;
  tokens['reader'] = (await gatewayOf(server.app).access.tokens.create({ username: 'reader', allowedScopes: 'read' })).token;
  tokens['both'] = (await gatewayOf(server.app).access.tokens.create({ username: 'both', allowedScopes: 'shipping,Through' })).token;
  tokens['writer'] = (await gatewayOf(server.app).access.tokens.create({ username: 'writer', allowedScopes: 'read,write' })).token;
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

describe('Proxy ForwardClaims', () => {
  it('sends the claim as the header, drops forged values, never the token', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/demo/Claims',
      headers: { authorization: `Bearer ${tokens['shipper']}`, 'x-caller': 'admin', 'x-missing': '42' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ caller: 'shipper', missing: null, authorization: null });
  });

  it('an answer made for the caller\'s claims is Cache-Control: private, whatever the upstream said (no shared cache in front may keep it)', async () => {
    const get = async (query: string) =>
      (await server.app.inject({ method: 'GET', url: `/api/demo/Claims${query}`, headers: { authorization: `Bearer ${tokens['shipper']}` } })).headers['cache-control'];
    expect(await get('?cc=public,%20max-age=600,%20s-maxage=600')).toBe('private, max-age=600');
    expect(await get('?cc=S-MaxAge=60')).toBe('private');
    expect(await get('?cc=no-store')).toBe('no-store');
    expect(await get('?cc=private,%20max-age=5')).toBe('private, max-age=5');
    expect(await get('')).toBe('private');
  });

  it('no matching rule: 403', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/demo/Claims', headers: { authorization: `Bearer ${tokens['reader']}` } });
    expect(response.statusCode).toBe(403);
  });

  it('a Composite step into the endpoint goes through its rules: 403 without one, claims forwarded with one', async () => {
    const send = (token: string) =>
      server.app.inject({ method: 'POST', url: '/api/demo/Through', headers: { authorization: `Bearer ${tokens[token]}`, 'content-type': 'application/json', 'x-caller': 'admin' }, payload: '{}' });
    const refused = await send('writer');
    expect([refused.statusCode, refused.json()]).toEqual([403, { success: false, error: "Token is not allowed to call GET on 'Claims'" }]);
    // the composite itself needs its own scope (the pattern Through), the step the rule's scope
    const allowed = await send('both');
    expect(allowed.statusCode).toBe(200);
    expect(JSON.stringify(allowed.json())).toContain('"caller":"both"');
  });
});
