import fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from './lazy-schema-compilers.js';

describe('lazySchemaCompilers', () => {
  it('a route with a body schema is still validated (ajv loaded on demand) and a response schema still serializes', async () => {
    const app = fastify({ schemaController: lazySchemaCompilers() });
    app.post(
      '/x',
      {
        schema: {
          body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      async (request) => ({ n: (request.body as { n: number }).n, hidden: 'dropped by the serializer' }),
    );
    const ok = await app.inject({ method: 'POST', url: '/x', payload: { n: 3 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('{"n":3}');
    const bad = await app.inject({ method: 'POST', url: '/x', payload: { n: 'three' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('body/n must be integer');
    await app.close();
  });
});
