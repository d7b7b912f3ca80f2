/**
 * The SQL area: creates the per-environment drivers with the SqlConnectionPooling settings,
 * registers the SQL handler and closes the drivers with the app. Returns the drivers (webhooks,
 * health, metrics and the console use them). A test may call registerSqlEndpoints itself with the
 * gateway's slice and handler registry (or pass `handlers: { sql: createSqlHandler(drivers) }` to
 * buildServer).
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Area } from '../areas/area.js';
import type { HandlerRegistry } from '../handlers/registry.js';
import type { Settings } from '../settings/load-settings.js';
import type { ServerSettings } from '../settings/server-settings.js';
import { SqlDrivers } from './drivers/factory.js';
import { createSqlHandler } from './fastify-handler.js';
import { readSqlSettings, type SqlSettings } from './sql-settings.js';

export interface RegisterSqlOptions {
  /** Where the embedded demo database is cached; default `<cwd>/.wharf`. */
  readonly embeddedCacheDir?: string | null;
}

export interface SqlAreaSettings {
  readonly pooling: ServerSettings['sqlPooling'];
  readonly sql: SqlSettings;
}

export function sqlAreaSettings(settings: Settings): SqlAreaSettings {
  return { pooling: settings.server.sqlPooling, sql: readSqlSettings(settings.server.source) };
}

export function registerSqlEndpoints(
  app: FastifyInstance,
  settings: SqlAreaSettings,
  handlers: HandlerRegistry,
  options: RegisterSqlOptions = {},
): SqlDrivers {
  const { pooling } = settings;
  const drivers = new SqlDrivers({
    log: app.log,
    embeddedCacheDir: options.embeddedCacheDir === undefined ? path.join(process.cwd(), '.wharf') : options.embeddedCacheDir,
    // pooling disabled = one connection per environment
    pool: pooling.enabled ? { min: pooling.minPoolSize, max: pooling.maxPoolSize } : { min: 0, max: 1 },
    requestTimeoutMs: pooling.commandTimeoutSeconds * 1000,
    connectionTimeoutMs: pooling.connectionTimeoutSeconds * 1000,
  });
  handlers.register('sql', createSqlHandler(drivers, settings.sql));
  app.addHook('onClose', () => drivers.close());
  return drivers;
}

export const sqlArea: Area<SqlAreaSettings, { readonly handlers: HandlerRegistry }, SqlDrivers> = {
  name: 'sql',
  slice: sqlAreaSettings,
  register: (app, { settings, infra }) => registerSqlEndpoints(app, settings, infra.handlers),
};
