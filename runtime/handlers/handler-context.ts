/** What an endpoint-kind handler receives: everything the pipeline resolved for this request. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointKind, HttpMethod } from '../contract/index.js';
import type { LoadedEndpointOf } from '../load/loaded-endpoint.js';
import type { RouteTable, RouteTarget } from '../routing/route-table.js';
import type { ServerTiming } from '../pipeline/server-timing.js';
import type { EnvironmentConfig } from '../settings/environments.js';
import type { Settings } from '../settings/load-settings.js';

/** Methods that reach a handler: the configured ones plus HEAD (served where GET is). */
export type ApiMethod = HttpMethod | 'HEAD';

type EndpointOf<K extends EndpointKind> = K extends EndpointKind ? LoadedEndpointOf<K> : never;

export interface HandlerContext<K extends EndpointKind = EndpointKind> {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly method: ApiMethod;
  readonly environment: EnvironmentConfig;
  readonly endpoint: EndpointOf<K>;
  readonly target: RouteTarget;
  /** The table this request started with (never a newer one): use it to look up other endpoints. */
  readonly routes: RouteTable;
  readonly settings: Settings;
  readonly timing: ServerTiming;
}

/**
 * Answers a request: return the payload (fastify serializes it), or send through `ctx.reply` and
 * return the reply. Throw a WharfError for a spec error; anything else becomes a 500 with traceId.
 */
export type EndpointHandler<K extends EndpointKind = EndpointKind> = (
  context: HandlerContext<K>,
) => unknown;
