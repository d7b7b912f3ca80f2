/**
 * One-line wiring for the runtime: `registerSqlEndpoints(app)` after buildServer has created
 * `app.wharf` (or pass `handlers: { sql: createSqlHandler(drivers) }` to buildServer yourself).
 * Creates the per-environment drivers with the SqlConnectionPooling settings, registers the SQL
 * handler and closes the drivers with the app.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SqlDrivers } from './drivers/factory.js';
import { createSqlHandler } from './fastify-handler.js';
import { readSqlSettings } from './sql-settings.js';

export interface RegisterSqlOptions {
  /** Where the embedded demo database is cached; default `<cwd>/.wharf`. */
  readonly embeddedCacheDir?: string | null;
}

export function registerSqlEndpoints(app: FastifyInstance, options: RegisterSqlOptions = {}): SqlDrivers {
  const pooling = app.wharf.settings.server.sqlPooling;
  const drivers = new SqlDrivers({
    log: app.log,
    embeddedCacheDir: options.embeddedCacheDir === undefined ? path.join(process.cwd(), '.wharf') : options.embeddedCacheDir,
    // pooling disabled = one connection per environment
    pool: pooling.enabled ? { min: pooling.minPoolSize, max: pooling.maxPoolSize } : { min: 0, max: 1 },
    requestTimeoutMs: pooling.commandTimeoutSeconds * 1000,
    connectionTimeoutMs: pooling.connectionTimeoutSeconds * 1000,
  });
  app.wharf.handlers.register('sql', createSqlHandler(drivers, readSqlSettings(app.wharf.settings.server.source)));
  app.addHook('onClose', () => drivers.close());
  return drivers;
}
