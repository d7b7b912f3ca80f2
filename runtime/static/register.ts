/**
 * The Static area: content files are resolved against the project root (the folder holding
 * generated/).
 */
import path from 'node:path';
import type { Area } from '../areas/area.js';
import type { HandlerRegistry } from '../handlers/registry.js';
import { StaticContentCache } from './content-cache.js';
import { createStaticHandler } from './handler.js';

export const staticArea: Area<{ readonly projectRoot: string }, { readonly handlers: HandlerRegistry }> = {
  name: 'static',
  slice: (_settings, folders) => ({ projectRoot: path.dirname(folders.generatedDir) }),
  register(app, { settings, infra }) {
    infra.handlers.register('static', createStaticHandler(
      settings.projectRoot,
      new StaticContentCache((file, reason) =>
        app.log.warn({ event: 'static.content_stale', file, reason }, 'content file does not parse; serving its last good version'),
      ),
    ));
  },
};
