import { unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../testing/test-server.js';
import type { TestServer } from '../testing/test-server.js';
import { DOCS_CSP } from './api-reference.js';
import { gatewayOf } from '../gateway-handle.js';

const OPENAPI = { openapi: '3.1.0', info: { title: 'Wharf test', version: '1' }, paths: { '/api/{env}/A': {} } };

describe('API reference', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ generated: { endpoints: [], sourceHash: 'ref-hash', openapi: OPENAPI } });
  });
  afterAll(async () => server.close());

  it('/openapi.json serves generated/openapi.json with an ETag', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['etag']).toBe('"ref-hash"');
    expect(response.json()).toEqual(OPENAPI);
    const again = await server.app.inject({ method: 'GET', url: '/openapi.json', headers: { 'if-none-match': '"ref-hash"' } });
    expect(again.statusCode).toBe(304);
  });

  it('/docs is our page: local assets only, strict CSP', async () => {
    for (const url of ['/docs', '/docs/']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(DOCS_CSP);
      expect(response.body).toContain('<script src="/docs/swagger-ui-bundle.js"></script>');
      expect(response.body).not.toMatch(/https?:\/\//);
      expect(response.body).not.toMatch(/<script>|<style>/);
    }
    expect(DOCS_CSP).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    );
  });

  it.each([
    ['/docs/swagger-ui-bundle.js', 'application/javascript; charset=utf-8', 'SwaggerUIBundle'],
    ['/docs/swagger-ui.css', 'text/css; charset=utf-8', '.swagger-ui'],
    ['/docs/wharf-reference.js', 'text/javascript; charset=utf-8', "url: '/openapi.json'"],
  ])('%s', async (url, type, marker) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(response.body).toContain(marker);
  });

  it.each(['/docs/index.html', '/docs/swagger-initializer.js'])('%s (points at an external URL) is not served', async (url) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, error: `Route 'GET ${url}' not found` });
  });

  it('/openapi.json is 404 when the file is absent', async () => {
    const other = await createTestServer({ generated: { endpoints: [] } });
    try {
      await unlink(path.join(other.project.generatedDir, 'openapi.json'));
      await gatewayOf(other.app).reload();
      const response = await other.app.inject({ method: 'GET', url: '/openapi.json' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ success: false, error: 'generated/openapi.json is missing. Run wharf build.' });
    } finally {
      await other.close();
    }
  });

  it('/openapi.json that is an object on the outside but not JSON inside: the server runs, the document answers 500 with a traceId', async () => {
    const other = await createTestServer({ generated: { endpoints: [] } });
    try {
      await writeFile(path.join(other.project.generatedDir, 'openapi.json'), '{"openapi": "3.1.0", "paths": nope}\n');
      await gatewayOf(other.app).reload();
      const response = await other.app.inject({ method: 'GET', url: '/openapi.json' });
      expect(response.statusCode).toBe(500);
      const body = response.json() as { traceId: string };
      expect(body).toEqual({ success: false, error: 'Error processing. Please check the logs for more details.', traceId: body.traceId });
      expect(other.logs.text()).toContain('openapi.json is not valid JSON: ');
    } finally {
      await other.close();
    }
  });
});
