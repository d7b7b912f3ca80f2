/**
 * The sync process: one loop per tracked object of every environment, sharing state.db,
 * sinkhole.db, one SQL driver per connection string and one instance per destination.
 * Hot reload: the configuration files are re-read every second; when they change and are valid,
 * the loops finish their batch, everything is rebuilt and the loops start again (an invalid
 * change is logged and the running configuration stays). stop() (SIGTERM) lets each loop finish
 * or abandon its batch within ShutdownGraceSeconds; nothing advances past what was delivered.
 */
import type { SqlDriver } from '../../sql/drivers/driver.js';
import { createSqlDriver } from '../../sql/drivers/factory.js';
import { loadSyncConfig, type LoadedSyncConfig } from '../config/load.js';
import type { SyncConfig, SyncEnvironment } from '../config/model.js';
import type { Batch } from '../destinations/batch.js';
import type { SyncDestination } from '../destinations/destination.js';
import { createDestination } from '../destinations/index.js';
import { DeadLetterStore } from '../state/dead-letters.js';
import { StateStore } from '../state/state-store.js';
import { errorText } from './deliver.js';
import { sleep, type SyncLog } from './log.js';
import { ObjectSync } from './object-sync.js';

export interface SyncServiceOptions {
  readonly root: string;
  readonly environmentsDir?: string;
  /** Variables for `Section__Key` overrides of environments/sync.json (`Health__Port`). Default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly log: SyncLog;
  /** Use this configuration instead of reading environments/ (no hot reload then). */
  readonly config?: SyncConfig;
  /** Drivers opened by the caller, by connection string (the demo's in-process database). */
  readonly drivers?: ReadonlyMap<string, SqlDriver>;
  readonly onDelivered?: (batch: Batch) => void;
  /** Seconds between two checks of the configuration files (default 1; 0 = no hot reload). */
  readonly reloadCheckSeconds?: number;
}

const RETENTION_CHECK_MS = 6 * 3600_000;

interface Running {
  readonly controller: AbortController;
  readonly loops: Promise<void>[];
  readonly destinations: SyncDestination[];
  readonly drivers: SqlDriver[];
}

export class SyncService {
  readonly state: StateStore;
  readonly deadLetters: DeadLetterStore;
  private running: Running | null = null;
  private fingerprint: string | null;
  private stopped = false;
  private readonly watcher = new AbortController();
  private reloading: Promise<void> = Promise.resolve();
  /** Per "env/object": the object's loop, for health and tests. */
  readonly objects = new Map<string, ObjectSync>();
  /** In-process (embedded) databases by connection string: the health probes query these. */
  readonly embedded = new Map<string, SqlDriver>();

  private constructor(
    private readonly options: SyncServiceOptions,
    public config: SyncConfig,
    fingerprint: string | null,
  ) {
    this.fingerprint = fingerprint;
    this.state = StateStore.open(config.service.stateDirectory);
    this.deadLetters = DeadLetterStore.at(config.service.stateDirectory);
  }

  static async start(options: SyncServiceOptions): Promise<SyncService> {
    const loaded: LoadedSyncConfig = options.config
      ? { config: options.config, fingerprint: '' }
      : await loadSyncConfig(options.root, options.environmentsDir, options.env);
    const service = new SyncService(options, loaded.config, options.config ? null : loaded.fingerprint);
    service.expireDeadLetters();
    service.running = await service.launch(loaded.config);
    const every = options.reloadCheckSeconds ?? 1;
    if (service.fingerprint !== null && every > 0) void service.watch(every);
    return service;
  }

  /** Retention: at start and then every 6 hours. */
  private expireDeadLetters(): void {
    if (this.stopped) return;
    const dropped = this.deadLetters.expire(this.config.service.deadLetters.retentionDays);
    if (dropped > 0) this.options.log.warn({ event: 'sync.dead_letters_expired', dropped }, 'dead letters older than the retention were dropped; their objects send those changes again');
    setTimeout(() => this.expireDeadLetters(), RETENTION_CHECK_MS).unref();
  }

  private async openDriver(environment: SyncEnvironment, connectionString: string): Promise<{ driver: SqlDriver; owned: boolean }> {
    const given = this.options.drivers?.get(connectionString);
    if (given) return { driver: given, owned: false };
    return { driver: await createSqlDriver({ provider: environment.provider, connectionString }, { requestTimeoutMs: 300_000 }), owned: true };
  }

  private async launch(config: SyncConfig): Promise<Running> {
    const controller = new AbortController();
    const running: Running = { controller, loops: [], destinations: [], drivers: [] };
    const { log } = this.options;
    for (const environment of config.environments) {
      const destinations = environment.destinations.map((d) => createDestination(d, { root: this.options.root, log }));
      running.destinations.push(...destinations);
      const drivers = new Map<string, SqlDriver>();
      for (const [key, connectionString] of Object.entries(environment.connectionStrings)) {
        const { driver, owned } = await this.openDriver(environment, connectionString);
        drivers.set(key, driver);
        if (driver.provider === 'embedded') this.embedded.set(connectionString, driver);
        if (owned) running.drivers.push(driver);
      }
      for (const object of environment.objects) {
        const sync = new ObjectSync({
          environment,
          object,
          driver: drivers.get(object.connectionKey) as SqlDriver,
          destinations,
          state: this.state,
          deadLetters: this.deadLetters,
          deadLetterSettings: config.service.deadLetters,
          log,
          ...(this.options.onDelivered ? { onDelivered: this.options.onDelivered } : {}),
        });
        this.objects.set(`${environment.name}/${object.name}`, sync);
        running.loops.push(this.loop(sync, object.pollingIntervalSeconds, config.service.deadLetters.replayIntervalSeconds, controller.signal));
      }
    }
    if (config.environments.length === 0) {
      log.warn({ event: 'sync.no_environments' }, 'no environments/<env>/sync.json found: nothing to sync (see docs/sync.md, or try `wharf sync --demo`)');
    }
    log.info(
      { event: 'sync.started', environments: config.environments.map((e) => ({ name: e.name, objects: e.objects.map((o) => o.name), destinations: e.destinations.map((d) => `${d.type}:${d.key}`) })) },
      'sync running',
    );
    return running;
  }

  private async loop(sync: ObjectSync, pollingSeconds: number, replaySeconds: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const outcome = await sync.cycle(signal);
      if (outcome === 'delivered') continue;
      const wait = outcome === 'blocked' ? Math.min(pollingSeconds, replaySeconds) : pollingSeconds;
      await sleep(wait * 1000, signal);
    }
  }

  private async halt(running: Running, graceSeconds: number): Promise<void> {
    running.controller.abort();
    const grace = new AbortController();
    const all = Promise.all(running.loops);
    const timedOut = await Promise.race([all.then(() => false), sleep(graceSeconds * 1000, grace.signal).then(() => !grace.signal.aborted)]);
    grace.abort();
    if (timedOut) this.options.log.warn({ event: 'sync.shutdown_abandoned' }, 'a batch in flight was abandoned; its version was not stored');
    await Promise.all(running.destinations.map((d) => d.close().catch(() => undefined)));
    await Promise.all(running.drivers.map((d) => d.close().catch(() => undefined)));
    this.objects.clear();
    this.embedded.clear();
  }

  private async watch(everySeconds: number): Promise<void> {
    const { readSyncFiles, fingerprintOf } = await import('../config/load.js');
    const dir = this.options.environmentsDir ?? `${this.options.root}/environments`;
    while (!this.watcher.signal.aborted) {
      await sleep(everySeconds * 1000, this.watcher.signal);
      if (this.watcher.signal.aborted) break;
      try {
        if (fingerprintOf(await readSyncFiles(dir)) === this.fingerprint) continue;
        const next = await loadSyncConfig(this.options.root, this.options.environmentsDir, this.options.env);
        this.fingerprint = next.fingerprint;
        this.reloading = this.reload(next.config);
        await this.reloading;
      } catch (error) {
        this.fingerprint = fingerprintOf(await readSyncFiles(dir).catch(() => new Map()));
        this.options.log.error({ event: 'sync.reload_failed', err: errorText(error) }, 'configuration change rejected; the running configuration stays');
      }
    }
  }

  private async reload(config: SyncConfig): Promise<void> {
    if (this.stopped || !this.running) return;
    this.options.log.info({ event: 'sync.reloading' }, 'configuration changed: reloading');
    await this.halt(this.running, this.config.service.shutdownGraceSeconds);
    this.config = config;
    this.running = await this.launch(config);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.watcher.abort();
    await this.reloading.catch(() => undefined);
    if (this.running) await this.halt(this.running, this.config.service.shutdownGraceSeconds);
    this.running = null;
    this.state.close();
    this.deadLetters.close();
    this.options.log.info({ event: 'sync.stopped' }, 'sync stopped');
  }
}
