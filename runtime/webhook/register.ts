/**
 * The Webhook area: the handler on the SQL drivers of the app (webhooks write to the
 * environment's database like SQL endpoints do).
 */
import type { FastifyInstance } from 'fastify';
import type { Area } from '../areas/area.js';
import type { HandlerRegistry } from '../handlers/registry.js';
import type { SqlDrivers } from '../sql/drivers/factory.js';
import { createWebhookHandler } from './webhook-handler.js';

export function registerWebhookEndpoints(handlers: HandlerRegistry, drivers: SqlDrivers): void {
  handlers.register('webhook', createWebhookHandler(drivers));
}

export const webhookArea: Area<null, { readonly handlers: HandlerRegistry; readonly drivers: SqlDrivers }> = {
  name: 'webhook',
  slice: () => null,
  register: (_app: FastifyInstance, { infra }) => registerWebhookEndpoints(infra.handlers, infra.drivers),
};
