/** Hot swap: in-flight requests keep their table, later requests see the new one, failed loads keep the old. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ECHO_HANDLERS } from './testing/echo-handlers.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HandlerContext } from './handlers/handler-context.js';
import { writeGenerated } from './testing/generated-fixture.js';
import { createTestServer } from './testing/test-server.js';
import type { TestServer } from './testing/test-server.js';
import { gatewayOf } from './gateway-handle.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const V1 = { sourceHash: 'hash-v1', endpoints: [{ kind: 'sql' as const, routePath: 'WMS/Bins', displayName: 'Bins v1' }] };
const V2 = {
  sourceHash: 'hash-v2',
  endpoints: [
    { kind: 'sql' as const, routePath: 'WMS/Bins', displayName: 'Bins v2' },
    { kind: 'sql' as const, routePath: 'WMS/Racks' },
  ],
};

describe('reload', () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it('swaps atomically: the in-flight request finishes on the old table, the next uses the new one', async () => {
    const entered = deferred();
    const release = deferred();
    let slow = true;
    server = await createTestServer({
      generated: V1,
      handlers: {
        sql: async (context: HandlerContext<'sql'>) => {
          if (slow) {
            slow = false;
            entered.resolve();
            await release.promise;
          }
          return {
            endpoint: context.endpoint.model.displayName,
            table: context.routes.sourceHash,
            racks: context.routes.byId('sql:WMS/Racks') !== undefined,
          };
        },
      },
    });
    const { app, inject } = server;
    const inFlight = inject({ method: 'GET', url: '/api/demo/WMS/Bins' });
    await entered.promise;

    await writeGenerated(server.project.generatedDir, V2);
    expect(await gatewayOf(app).reload()).toEqual({ ok: true, sourceHash: 'hash-v2', endpoints: 2 });
    release.resolve();

    const first = await inFlight;
    expect(first.json()).toEqual({ endpoint: 'Bins v1', table: 'hash-v1', racks: false });
    const next = await inject({ method: 'GET', url: '/api/demo/WMS/Bins' });
    expect(next.json()).toEqual({ endpoint: 'Bins v2', table: 'hash-v2', racks: true });
    const added = await inject({ method: 'GET', url: '/api/demo/WMS/Racks' });
    expect(added.statusCode).toBe(200);
    const openapi = await inject({ method: 'GET', url: '/openapi.json' });
    expect(openapi.json().info.version).toBe('hash-v2');
  });

  it('a failing reload keeps the last good table and reports the error', async () => {
    server = await createTestServer({ generated: V1, handlers: ECHO_HANDLERS });
    const { app, inject } = server;
    await writeFile(
      path.join(server.project.generatedDir, 'manifest.json'),
      JSON.stringify({ schemaVersion: 99, sourceHash: 'hash-v9', endpoints: [] }),
    );
    const result = await gatewayOf(app).reload();
    const file = path.relative(process.cwd(), path.join(server.project.generatedDir, 'manifest.json'));
    const shown = file.startsWith('..') ? path.join(server.project.generatedDir, 'manifest.json') : file;
    expect(result).toEqual({
      ok: false,
      error: `${shown} has schema version 99; this runtime understands 1. Run wharf build.`,
      sourceHash: 'hash-v1',
      endpoints: 1,
    });
    const response = await inject({ method: 'GET', url: '/api/demo/WMS/Bins' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ endpoint: 'sql:WMS/Bins' });
    const logged = server.logs.lines().find((line) => String(line['msg']).startsWith('Reload failed'));
    expect(logged?.['level']).toBe(50);
  });

  it('a bundle built from other sources is refused on reload', async () => {
    server = await createTestServer({ generated: V1 });
    await writeGenerated(server.project.generatedDir, { ...V2, bundleHash: 'hash-other' });
    const result = await gatewayOf(server.app).reload();
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/routes\.bundle\.mjs was built from sources hash-other but the manifest from hash-v2\. Run wharf build\.$/);
    expect(gatewayOf(server.app).routes.current.sourceHash).toBe('hash-v1');
  });

  it('concurrent reloads queue and both report the new table', async () => {
    server = await createTestServer({ generated: V1 });
    await writeGenerated(server.project.generatedDir, V2);
    const results = await Promise.all([gatewayOf(server.app).reload(), gatewayOf(server.app).reload()]);
    expect(results.map((result) => result.sourceHash)).toEqual(['hash-v2', 'hash-v2']);
    expect(gatewayOf(server.app).routes.current.size).toBe(2);
  });
});
