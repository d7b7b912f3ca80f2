/**
 * A minimal gateway for testing the access, traffic and cache stages over HTTP (fastify inject)
 * against a FakeDatabase several instances share (executions counted, rows written), with the
 * runtime's own error handling. The real server's wiring is tested in server-wiring.test.ts.
 * Order, as in docs/security.md:
 *   onRequest admission (IP limit, 401, token limit) -> env allowed (400) -> resolve (404)
 *   -> authorize (403) -> cache stage -> handler -> onSend (cache store / invalidate, ETag, 304)
 * Endpoints live in a small table; their data in a `FakeDatabase` that several instances can share.
 */
import fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { installAccessControl } from '../../runtime/auth/access-hooks.js';
import type { AccessControl } from '../../runtime/auth/admission.js';
import { authorize } from '../../runtime/auth/authorize.js';
import { cacheStage, installResponseCache } from '../../runtime/cache/cache-hooks.js';
import type { ResponseCache } from '../../runtime/cache/response-cache.js';
import { installErrorHandling } from '../../runtime/errors/error-handler.js';

export interface MiniEndpoint {
  readonly id: string;
  readonly kind: 'sql' | 'proxy' | 'static';
  readonly name: string;
  readonly namespace: string | null;
  readonly routePath: string;
  readonly cacheDurationSeconds: number | null;
}

export const MINI_ENDPOINTS: readonly MiniEndpoint[] = [
  { id: 'sql:Inventory/Products', kind: 'sql', name: 'Products', namespace: 'Inventory', routePath: 'Inventory/Products', cacheDurationSeconds: null },
  { id: 'sql:Sales/Orders', kind: 'sql', name: 'Orders', namespace: 'Sales', routePath: 'Sales/Orders', cacheDurationSeconds: null },
  { id: 'proxy:Accounts', kind: 'proxy', name: 'Accounts', namespace: null, routePath: 'Accounts', cacheDurationSeconds: 0 },
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
  readonly cache?: ResponseCache;
  readonly database?: FakeDatabase;
  readonly allowedEnvironments?: readonly string[];
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'MERGE', 'QUERY'];

export async function buildMiniGateway(options: MiniGatewayOptions): Promise<FastifyInstance> {
  const app = fastify({ logger: false });
  app.addHttpMethod('MERGE', { hasBody: true });
  app.addHttpMethod('QUERY', { hasBody: true, overrideExisting: true });
  const database = options.database ?? new FakeDatabase();
  const allowed = (options.allowedEnvironments ?? ['dev', 'prod']).map((env) => env.toLowerCase());
  installErrorHandling(app);
  installAccessControl(app, { control: options.control });
  if (options.cache) installResponseCache(app, { cache: options.cache });

  app.route({
    method: METHODS,
    url: '/api/*',
    handler: async (request, reply) => {
      const [env = '', ...segments] = (request.url.split('?')[0] ?? '').split('/').slice(2);
      if (!allowed.includes(env.toLowerCase())) {
        return reply.code(400).send({ success: false, error: `Environment '${env}' is not allowed.` });
      }
      const path = segments.join('/').toLowerCase();
      const endpoint = MINI_ENDPOINTS.find((candidate) => candidate.routePath.toLowerCase() === path);
      if (!endpoint) return reply.code(404).send({ success: false, error: `Endpoint '${segments.join('/')}' not found` });
      const method = request.method.toUpperCase();
      authorize(request.wharfAccess!.principal!, { env, method, endpoint });
      if (options.cache && (await cacheStage(options.cache, request, reply, { env, endpoint, body: request.body }))) {
        return reply;
      }
      database.executions += 1;
      if (method === 'POST') {
        const name = (request.body as { name?: string } | undefined)?.name ?? 'unnamed';
        return reply.code(201).send({ success: true, result: database.insert(endpoint.id, name) });
      }
      if (method === 'PUT' || method === 'PATCH' || method === 'MERGE' || method === 'DELETE') {
        return { success: true, message: 'ok' };
      }
      const filter = method === 'QUERY' ? (request.body as { filter?: string } | undefined)?.filter : undefined;
      const value = database.list(endpoint.id).filter((row) => !filter || row.name.includes(filter));
      return { success: true, count: value.length, value };
    },
  });
  await app.ready();
  return app;
}
