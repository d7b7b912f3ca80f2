/**
 * One-line wiring for the runtime: `registerFilesEndpoints(app)` after buildServer has created
 * `app.wharf`. Reads FileStorage:*, removes upload temp files a crash left behind (before the
 * server answers anything), and registers the Files handler.
 */
import type { FastifyInstance } from 'fastify';
import { FileStore } from './file-store.js';
import { createFilesHandler } from './handler.js';
import { readFileStorageSettings } from './storage-settings.js';

export async function registerFilesEndpoints(app: FastifyInstance): Promise<FileStore> {
  const settings = readFileStorageSettings(app.wharf.settings.server.source, app.wharf.dataDir);
  const store = new FileStore(settings.storageDirectory);
  const roots = new Set([store.root]);
  for (const endpoint of app.wharf.routes.current.endpoints) {
    if (endpoint.kind === 'files' && endpoint.model.storageDirectory) roots.add(endpoint.model.storageDirectory);
  }
  for (const root of roots) {
    const removed = await store.removeTempLeftovers(root);
    if (removed > 0) app.log.warn({ event: 'files.temp_cleanup', root, removed }, 'removed unfinished uploads');
  }
  app.wharf.handlers.register('files', createFilesHandler(store, settings));
  return store;
}
