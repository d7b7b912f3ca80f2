/**
 * The Files area: reads FileStorage:*, removes upload temp files a crash left behind (before the
 * server answers anything), and registers the Files handler.
 */
import type { Area } from '../areas/area.js';
import type { HandlerRegistry } from '../handlers/registry.js';
import { FileStore } from './file-store.js';
import { createFilesHandler } from './handler.js';
import { readFileStorageSettings, type FileStorageSettings } from './storage-settings.js';

export const filesArea: Area<FileStorageSettings, { readonly handlers: HandlerRegistry }, FileStore> = {
  name: 'files',
  slice: (settings, folders) => readFileStorageSettings(settings.server.source, folders.dataDir),
  async register(app, { settings, endpoints, infra }) {
    const store = new FileStore(settings.storageDirectory);
    const roots = new Set([store.root]);
    for (const endpoint of endpoints.current.endpoints) {
      if (endpoint.kind === 'files' && endpoint.model.storageDirectory) roots.add(endpoint.model.storageDirectory);
    }
    for (const root of roots) {
      const removed = await store.removeTempLeftovers(root);
      if (removed > 0) app.log.warn({ event: 'files.temp_cleanup', root, removed }, 'removed unfinished uploads');
    }
    infra.handlers.register('files', createFilesHandler(store, settings));
    return store;
  },
};
