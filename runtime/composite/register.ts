/** The Composite area: the Composite handler on the Proxy's UpstreamClient. */
import type { Area } from '../areas/area.js';
import type { HandlerRegistry } from '../handlers/registry.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { createCompositeHandler } from './composite-handler.js';

export const compositeArea: Area<null, { readonly handlers: HandlerRegistry; readonly upstream: UpstreamClient }> = {
  name: 'composite',
  slice: () => null,
  register: (_app, { infra }) => infra.handlers.register('composite', createCompositeHandler(infra.upstream)),
};
