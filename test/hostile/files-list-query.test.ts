/**
 * The listing options of a Files endpoint given more than once (`?prefix=a&prefix=b`): the prefix
 * was read as the text `a,b` and answered 200 with an empty list, as if the directory had no such
 * files; now every repeated option is a 400 naming it, like the OData options of SQL endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({ generated: { endpoints: [{ kind: 'files', routePath: 'files/Docs' }] } });
});
afterAll(async () => server?.close());

describe('a Files listing option given twice: 400', () => {
  it.each([
    ['prefix', '?prefix=a&prefix=b'],
    ['$top', '?$top=1&$top=2'],
    ['$skip', '?$skip=0&$skip=1'],
  ])('%s', async (option, query) => {
    const res = await server.inject({ method: 'GET', url: `/api/demo/files/Docs${query}` });
    expect(res.json()).toEqual({ success: false, error: `${option} given more than once` });
    expect(res.statusCode).toBe(400);
  });

  it('once each still lists', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/files/Docs?prefix=a&$top=5&$skip=0' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, count: 0, value: [], nextLink: null });
  });
});
