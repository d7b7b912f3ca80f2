/** GET / through the real buildServer, with Features:LandingPage on (default) and off. */
import { describe, expect, it } from 'vitest';
import { createTestServer } from '../testing/test-server.js';

async function get(settings: Record<string, unknown>, method: 'GET' | 'HEAD' = 'GET', openapi?: unknown) {
  const server = await createTestServer({
    generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }, { kind: 'proxy', routePath: 'Weather' }], ...(openapi ? { openapi } : {}) },
    serverSettings: { Environment: { ServerName: 'acme <gw>', AllowedEnvironments: ['demo'] }, ...settings },
  });
  try {
    return await server.app.inject({ method, url: '/' });
  } finally {
    await server.app.close();
  }
}

describe('GET /', () => {
  it('serves the landing page by default, without a token', async () => {
    const response = await get({});
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    for (const href of ['/docs', '/ui', '/openapi.json', '/health/live', '/health/ready']) expect(response.body).toContain(`<a href="${href}">`);
    expect(response.body).toContain('<title>acme &lt;gw&gt; · Wharf</title>');
    expect(response.body).toContain('serving 2 endpoints under <code>/api/{env}/…</code>');
  });

  it('cannot be framed and sends no Referer, like the console pages', async () => {
    const response = await get({});
    expect(response.headers['content-security-policy']).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
    expect([response.headers['x-frame-options'], response.headers['referrer-policy'], response.headers['x-content-type-options']]).toEqual(['DENY', 'no-referrer', 'nosniff']);
  });

  it('names the OpenAPI version of the document it serves', async () => {
    const response = await get({}, 'GET', { openapi: '3.2.0', info: { title: 'fixture', version: '1' }, paths: {} });
    expect(response.body).toContain('the OpenAPI 3.2.0 document, for clients and generators');
    expect(response.body).not.toContain('3.1');
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await get({}, 'HEAD');
    expect([response.statusCode, response.headers['content-type'], response.body]).toEqual([200, 'text/html; charset=utf-8', '']);
  });

  it('redirects to /docs when Features:LandingPage is false', async () => {
    const response = await get({ Features: { LandingPage: false } });
    expect(response.statusCode).toBe(302);
    expect(response.headers['location']).toBe('/docs');
  });
});
