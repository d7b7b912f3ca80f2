/** `registerCompositeEndpoints(app, upstream)`: the Composite handler on the Proxy's UpstreamClient. */
import type { FastifyInstance } from 'fastify';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { createCompositeHandler } from './composite-handler.js';

export function registerCompositeEndpoints(app: FastifyInstance, upstream: UpstreamClient): void {
  app.wharf.handlers.register('composite', createCompositeHandler(upstream));
}
