/**
 * The contract between buildServer (runtime/server.ts) and the areas it registers: an area names
 * the slice of the settings it reads (`slice`, typed) and registers its hooks, routes or handlers
 * with what it is handed: that slice, the endpoints (the route table in force, swapped by reload)
 * and `infra`, the few dependencies it states in its own type (an access runtime, the upstream
 * client, the handler registry...). Nothing is read back from the fastify instance: there is no
 * service locator, so what an area uses is visible in its type and at the one place that mounts it.
 * What an area returns (the SQL drivers, the health monitor) is handed explicitly to later areas.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import type { Settings } from '../settings/load-settings.js';

/** The gateway's folders (absolute), part of its configuration like the settings. */
export interface GatewayFolders {
  /** manifest.json, routes.bundle.mjs, openapi.json; its parent is the project root. */
  readonly generatedDir: string;
  /** settings.json, the console's overrides, one folder per environment. */
  readonly environmentsDir: string;
  /** The gateway's own data (the SQLite token store, default Files storage). */
  readonly dataDir: string;
}

export interface AreaContext<S, D> {
  /** The area's own slice of the settings, as loaded at start. */
  readonly settings: S;
  /** The endpoints being served (the holder's `current` changes on reload). */
  readonly endpoints: RouteTableHolder;
  /** The dependencies the area states, nothing more. */
  readonly infra: D;
}

export interface Area<S, D = Record<string, never>, R = void> {
  readonly name: string;
  /** The settings this area reads (and the folders it needs); the only way settings reach it. */
  slice(settings: Settings, folders: GatewayFolders): S;
  register(app: FastifyInstance, context: AreaContext<S, D>): R | Promise<R>;
}

/** Mounts areas on `app`, each with its slice of `settings`; `mount(area, infra)` returns what the area returns. */
export function areaMounter(app: FastifyInstance, settings: Settings, folders: GatewayFolders, endpoints: RouteTableHolder) {
  return async function mount<S, D, R>(area: Area<S, D, R>, infra: D): Promise<R> {
    return area.register(app, { settings: area.slice(settings, folders), endpoints, infra });
  };
}
