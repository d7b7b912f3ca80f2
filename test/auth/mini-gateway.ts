/**
 * The REAL gateway (buildServer on a generated/ fixture) for testing the access, traffic and cache
 * stages over HTTP (fastify inject) with hand-built parts: a token service, a limiter with a fake
 * clock, a cache store, and a handler over a `FakeDatabase` that several instances can share
 * (executions counted, rows written). Routing, the check order and error bodies are the server's
 * own (docs/security.md); only the parts handed in differ.
 */
import type { FastifyInstance } from 'fastify';
import type { EndpointKind } from '../../runtime/contract/index.js';
import type { AccessRuntime } from '../../runtime/auth/access-runtime.js';
import type { AccessControl } from '../../runtime/auth/admission.js';
import { MemoryCacheStore } from '../../runtime/cache/cache-store.js';
import { ResponseCache } from '../../runtime/cache/response-cache.js';
import type { HandlerContext } from '../../runtime/handlers/handler-context.js';
import type { HandlerMap } from '../../runtime/handlers/registry.js';
import { buildServer } from '../../runtime/server.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { EndpointSpec } from '../../runtime/testing/generated-fixture.js';

const ALL_METHODS = ['GET', 'QUERY', 'POST', 'PUT', 'PATCH', 'DELETE', 'MERGE'] as const;

export const MINI_ENDPOINTS: readonly EndpointSpec[] = [
  { kind: 'sql', routePath: 'Inventory/Products', methods: ALL_METHODS },
  { kind: 'sql', routePath: 'Sales/Orders', methods: ALL_METHODS },
  { kind: 'proxy', routePath: 'Accounts', methods: ALL_METHODS, cacheDurationSeconds: 0 },
];

/** Rows per endpoint id plus a count of handler executions (a cache hit does not execute). */
export class FakeDatabase {
  readonly rows = new Map<string, { id: number; name: string }[]>();
  executions = 0;

  list(endpointId: string): { id: number; name: string }[] {
    return this.rows.get(endpointId) ?? [];
  }

  insert(endpointId: string, name: string): { id: number; name: string } {
    const rows = this.list(endpointId);
    const row = { id: rows.length + 1, name };
    this.rows.set(endpointId, [...rows, row]);
    return row;
  }
}

export interface MiniGatewayOptions {
  readonly control: AccessControl;
  /** Default: a cache with Caching:Enabled false. */
  readonly cache?: ResponseCache;
  readonly database?: FakeDatabase;
  readonly allowedEnvironments?: readonly string[];
}

function databaseHandler(database: FakeDatabase) {
  return <K extends EndpointKind>(ctx: HandlerContext<K>): unknown => {
    database.executions += 1;
    const id = ctx.endpoint.model.id;
    const method = ctx.method;
    if (method === 'POST') {
      const name = (ctx.request.body as { name?: string } | undefined)?.name ?? 'unnamed';
      ctx.reply.code(201);
      return { success: true, result: database.insert(id, name) };
    }
    if (method === 'PUT' || method === 'PATCH' || method === 'MERGE' || method === 'DELETE') {
      return { success: true, message: 'ok' };
    }
    const filter = method === 'QUERY' ? (ctx.request.body as { filter?: string } | undefined)?.filter : undefined;
    const value = database.list(id).filter((row) => !filter || row.name.includes(filter));
    return { success: true, count: value.length, value };
  };
}

export async function buildMiniGateway(options: MiniGatewayOptions): Promise<FastifyInstance> {
  const environments = options.allowedEnvironments ?? ['dev', 'prod'];
  const project = await createTempProject({
    generated: { endpoints: MINI_ENDPOINTS },
    serverSettings: { Environment: { ServerName: 'mini', AllowedEnvironments: environments } },
    environments: Object.fromEntries(environments.map((env) => [env, { Provider: 'postgres', ConnectionString: 'postgres://127.0.0.1:1/none' }])),
  });
  const handle = databaseHandler(options.database ?? new FakeDatabase());
  const handlers: HandlerMap = { sql: handle, proxy: handle, composite: handle, static: handle, webhook: handle, files: handle };
  const cache =
    options.cache ??
    new ResponseCache({ enabled: false, provider: 'Memory', defaultDurationSeconds: 300, memoryLimitBytes: 1 << 20 }, new MemoryCacheStore(1 << 20));
  // buildServer reads only `control` and `cache` of a caller's access runtime (and never closes it).
  const access = { control: options.control, cache, tokens: options.control.tokens } as unknown as AccessRuntime;
  const app = await buildServer({
    generatedDir: project.generatedDir,
    environmentsDir: project.environmentsDir,
    dataDir: project.root,
    env: {},
    logger: false,
    handlers,
    access,
  });
  app.addHook('onClose', () => project.cleanup());
  await app.ready();
  return app;
}
