/**
 * The data API area: /api/* through the pipeline stages to the handler of the endpoint's kind.
 * Mounted last: every hook it relies on (gate, access, cache) is installed by then.
 */
import type { Area } from '../areas/area.js';
import type { HandlerRegistry } from '../handlers/registry.js';
import type { PipelineStage } from '../pipeline/api-request.js';
import type { Settings } from '../settings/load-settings.js';
import { apiRoutes } from './api-routes.js';

export interface ApiInfra {
  /** The settings in force (the console may swap the environments). */
  readonly settings: () => Settings;
  readonly handlers: HandlerRegistry;
  readonly stages: readonly PipelineStage[];
}

export const apiArea: Area<null, ApiInfra> = {
  name: 'data API',
  slice: () => null,
  async register(app, { endpoints: holder, infra }) {
    await app.register(apiRoutes, { settings: infra.settings, holder, handlers: infra.handlers, stages: infra.stages });
  },
};
