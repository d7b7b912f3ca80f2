/** One destination instance per configured destination. */
import type { Destination } from '../config/model.js';
import type { SyncLog } from '../engine/log.js';
import { createDatabaseDestination } from './database.js';
import type { SyncDestination } from './destination.js';
import { createFileDestination } from './file.js';
import { createHttpDestination } from './http.js';
import { createRabbitMqDestination } from './rabbitmq.js';

export function createDestination(config: Destination, context: { root: string; log: SyncLog }): SyncDestination {
  switch (config.type) {
    case 'File':
      return createFileDestination(config, context.root);
    case 'Http':
      return createHttpDestination(config);
    case 'RabbitMQ':
      return createRabbitMqDestination(config, context.log);
    case 'Database':
      return createDatabaseDestination(config);
  }
}
