/**
 * One-line wiring: `registerWebhookEndpoints(app, drivers)` with the SQL drivers of the app
 * (webhooks write to the environment's database like SQL endpoints do).
 */
import type { FastifyInstance } from 'fastify';
import type { SqlDrivers } from '../sql/drivers/factory.js';
import { createWebhookHandler } from './webhook-handler.js';

export function registerWebhookEndpoints(app: FastifyInstance, drivers: SqlDrivers): void {
  app.wharf.handlers.register('webhook', createWebhookHandler(drivers));
}
