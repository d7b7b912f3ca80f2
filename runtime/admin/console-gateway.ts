/**
 * The running gateway as the console area sees it: only the parts its routes read or change, each
 * typed as narrowly as they use it. runtime/server.ts builds it over the gateway (WharfRuntime) and
 * hands it in as ConsoleInfra.gateway; runtime/admin/ imports nothing of wharf-runtime.ts.
 * What changes while the server runs is a function, called on each use and never kept:
 * settings() (PATCH /ui/api/environments and the shared console store swap in a new value through
 * replaceEnvironments); the route table comes with the area's context (its holder's `current`).
 * The rest is fixed for the life of the server. Folders come with the area's settings slice.
 */
import type { AccessSettings } from '../auth/access-runtime.js';
import type { AccessControl } from '../auth/admission.js';
import type { RouteTable } from '../routing/route-table.js';
import type { EnvironmentMap } from '../settings/environments.js';
import type { Settings } from '../settings/load-settings.js';
import type { ServerSettings } from '../settings/server-settings.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { RedisLink } from '../traffic/redis-client.js';
import type { LogRing } from './log-ring.js';

/** What the console uses of access control (fixed at start). */
export interface ConsoleAccess {
  /** Bearer tokens (verified by the guard, managed by the token routes), the client IP resolver and the rate limiter (the console's IP budget; its counters also count sign-in attempts). */
  readonly control: Pick<AccessControl, 'tokens' | 'clientIp' | 'limiter'>;
  /** The access settings the access runtime was opened with: the groups of GET /ui/api/settings and the anti-lockout check. */
  readonly settings: Pick<AccessSettings, 'rateLimiting' | 'caching' | 'forwardedHeaders' | 'jwt'>;
  /** The gateway's Redis link (null without Redis:Url): console events and traffic shared across instances. */
  readonly redis: RedisLink | null;
}

export interface ConsoleGateway {
  /** The settings in force: call it on each use (replaceEnvironments swaps in a new frozen value). */
  settings(): Settings;
  /** The console changed environments/: a new settings value with these environments (and allowed list, server name). */
  replaceEnvironments(environments: EnvironmentMap, environment?: Partial<ServerSettings['environment']>): void;
  /** Closes one environment's pooled SQL connections after its settings changed (nothing when a test brought its own SQL handler). */
  forgetEnvironment(name: string): Promise<void>;
  /** Called after each successful reload of generated/ (the `endpoint_reload` events); returns the unsubscribe. */
  onReloaded(listener: (table: RouteTable) => void): () => void;
  /** The last log lines in memory, redacted (GET /ui/api/logs). */
  readonly logs: LogRing;
  /** The live setting changes: PUT /ui/api/settings and the shared store publish, the console applies WebUi:* from it. */
  readonly liveSettings: Pick<SettingsStore, 'subscribe' | 'update'>;
  readonly access: ConsoleAccess;
}
