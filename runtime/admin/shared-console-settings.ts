/**
 * Console changes on several instances (docs/deployment.md): with a shared store
 * (runtime/settings/shared-overrides.ts) every running instance lays the store's entries over its
 * own files and applies them:
 *   - when the console starts, on every `settings_changed` / `environments_changed` console event
 *     (shared across instances through Redis), before each GET of /ui/api/settings and
 *     /ui/api/environments, and without Redis every SHARED_SETTINGS_POLL_MS;
 *   - the store's settings go into this instance's settings.overrides.json and its environments into
 *     environments/<name>/settings.json: the files are the cache of the last known values (read at
 *     start after loadSettings has laid the store into them, or as they are when it is down);
 *   - applied live: the live settings through the settings store (runtime/settings/settings-store.ts:
 *     its subscribers apply Logging:MinLevel, WebUi:SecureCookies, WebUi:PublicOrigins unless a `__`
 *     environment variable sets them), Environment:AllowedEnvironments and the environments
 *     themselves (reloaded, their SQL pools dropped). The rest apply at the next start.
 * A store that does not answer (within Auth:Store:CommandTimeoutMs) leaves the last known values in
 * force; one warning line is logged until it answers again.
 */
import type { FastifyInstance } from 'fastify';
import { loadEnvironments } from '../settings/environments.js';
import { writeSharedCache } from '../settings/shared-overrides.js';
import type { ConsoleSettingsChange, ConsoleSettingsSnapshot, PostgresConsoleSettingsStore } from '../settings/shared-overrides.js';
import { setByVariable } from '../settings/settings-store.js';
import type { ConsoleGateway } from './console-gateway.js';

/** Without Redis, how often an instance reads the store for changes made on another one. */
export const SHARED_SETTINGS_POLL_MS = 5000;

/** The parts of the running instance a change is applied to. */
export interface SharedSettingsTarget {
  readonly app: FastifyInstance;
  readonly gateway: Pick<ConsoleGateway, 'settings' | 'replaceEnvironments' | 'forgetEnvironment' | 'liveSettings'>;
  /** This instance's environments/: the files the store's entries are written to. */
  readonly environmentsDir: string;
}

export class SharedConsoleSettings {
  private applied = '';
  private chain: Promise<void> = Promise.resolve();
  private unavailable = false;

  constructor(
    private readonly store: PostgresConsoleSettingsStore,
    private readonly target: SharedSettingsTarget,
  ) {}

  /** Stores a change for every instance (all or none); AUTH_STORE_UNAVAILABLE (503) when the store is down. */
  update(change: ConsoleSettingsChange): Promise<void> {
    return this.store.update(change);
  }

  /** Reads the store and applies what changed; never throws (a store that is down keeps the last values). */
  refresh(): Promise<void> {
    this.chain = this.chain.then(() => this.pull()).catch((error: unknown) => this.target.app.log.error({ err: error }, 'Applying the shared console settings failed'));
    return this.chain;
  }

  private async pull(): Promise<void> {
    const { log } = this.target.app;
    let snapshot: ConsoleSettingsSnapshot;
    try {
      snapshot = await this.store.read();
    } catch (error) {
      if (!this.unavailable) log.warn({ err: error }, 'Console settings store unreachable; serving with the last known settings and environments');
      this.unavailable = true;
      return;
    }
    if (this.unavailable) log.info('Console settings store answers again');
    this.unavailable = false;
    const text = JSON.stringify([snapshot.settings, snapshot.environments]);
    if (text === this.applied) return;
    await this.apply(snapshot);
    this.applied = text;
  }

  private async apply(snapshot: ConsoleSettingsSnapshot): Promise<void> {
    const { app, gateway, environmentsDir: dir } = this.target;
    const changed = await writeSharedCache(dir, snapshot);

    gateway.liveSettings.update(Object.entries(snapshot.settings));
    const allowed = setByVariable(gateway.settings().server.source, 'Environment:AllowedEnvironments')
      ? undefined
      : Object.entries(snapshot.settings).find(([name]) => name.toLowerCase() === 'environment:allowedenvironments')?.[1];
    const current = gateway.settings().server.environment.allowedEnvironments;
    const allowedChanged = Array.isArray(allowed) && JSON.stringify(allowed) !== JSON.stringify(current);
    if (changed.length > 0 || allowedChanged) {
      gateway.replaceEnvironments(await loadEnvironments(dir), allowedChanged ? { allowedEnvironments: allowed as string[] } : {});
      for (const name of changed) await gateway.forgetEnvironment(name);
      app.log.info({ environments: changed }, 'environments changed on another instance applied');
    }
  }
}
