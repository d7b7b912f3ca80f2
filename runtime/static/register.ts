/**
 * One-line wiring for the runtime: `registerStaticEndpoints(app)` after buildServer has created
 * `app.wharf`. Content files are resolved against the project root (the folder holding generated/).
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { StaticContentCache } from './content-cache.js';
import { createStaticHandler } from './handler.js';

export function registerStaticEndpoints(app: FastifyInstance): void {
  const projectRoot = path.dirname(app.wharf.generatedDir);
  app.wharf.handlers.register('static', createStaticHandler(
    projectRoot,
    new StaticContentCache((file, reason) =>
      app.log.warn({ event: 'static.content_stale', file, reason }, 'content file does not parse; serving its last good version'),
    ),
  ));
}
