/**
 * The running gateway (settings in force, the route table, the handlers, the shared access runtime,
 * the log ring, the SQL drivers, reload), for tests and the composition roots through
 * runtime/gateway-handle.ts. Areas are not handed it: buildServer (runtime/server.ts) gives each its
 * slice; the console gets its narrow view over this one (runtime/admin/console-gateway.ts). Its own
 * module, so gateway-handle.ts imports the type without importing server.ts. No fastify decoration
 * carries it.
 */
import type { LogRing } from './admin/log-ring.js';
import type { AccessRuntime } from './auth/access-runtime.js';
import type { HandlerRegistry } from './handlers/registry.js';
import type { RouteTable } from './routing/route-table.js';
import type { RouteTableHolder } from './routing/route-table-holder.js';
import type { EnvironmentMap } from './settings/environments.js';
import type { Settings } from './settings/load-settings.js';
import type { ServerSettings } from './settings/server-settings.js';
import type { SettingsStore } from './settings/settings-store.js';
import type { SqlDrivers } from './sql/drivers/factory.js';

export interface ReloadResult {
  readonly ok: boolean;
  /** Why the load failed; the previous table keeps serving. */
  readonly error?: string;
  /** sourceHash and endpoint count of the table serving after the call. */
  readonly sourceHash: string;
  readonly endpoints: number;
}

export interface WharfRuntime {
  /** The settings in force (frozen); replaceEnvironments() swaps in a new value, nothing edits it in place. */
  readonly settings: Settings;
  /** The console changed environments/: a new settings value with these environments (and allowed list, server name). */
  replaceEnvironments(environments: EnvironmentMap, environment?: Partial<ServerSettings['environment']>): void;
  readonly generatedDir: string;
  readonly routes: RouteTableHolder;
  readonly handlers: HandlerRegistry;
  /** Token service, rate limiter and response cache: the CLI and the admin console reuse these. */
  readonly access: AccessRuntime;
  /** Absolute path of the data folder. */
  readonly dataDir: string;
  /** The last log lines in memory, redacted (the console's GET /ui/api/logs). */
  readonly logs: LogRing;
  /** Absolute path of environments/ (settings.json, the console's overrides, one folder per environment). */
  readonly environmentsDir: string;
  /** The SQL drivers per environment (null when a test brought its own SQL handler). */
  readonly sql: SqlDrivers | null;
  /** The console's live setting changes; the areas that apply them subscribe (runtime/settings/settings-store.ts). */
  readonly liveSettings: SettingsStore;
  /** Loads generated/ again; swaps the table only when the load succeeds. Calls run one at a time. */
  reload(): Promise<ReloadResult>;
  /** Called after each successful reload (runtime/routing/reload.ts); returns the unsubscribe. */
  onReloaded(listener: (table: RouteTable) => void): () => void;
}

/** What the gateway is made of besides the settings in force. */
export type WharfRuntimeParts = Omit<WharfRuntime, 'settings' | 'replaceEnvironments'>;

/** The running gateway over `parts`: the settings in force start as `settings`; replaceEnvironments swaps in a new frozen value. */
export function createWharfRuntime(settings: Settings, parts: WharfRuntimeParts): WharfRuntime {
  let current = settings;
  return {
    ...parts,
    get settings() {
      return current;
    },
    replaceEnvironments(environments, environment = {}) {
      const server = Object.freeze({ ...current.server, environment: Object.freeze({ ...current.server.environment, ...environment }) });
      current = Object.freeze({ server, environments });
    },
  };
}
