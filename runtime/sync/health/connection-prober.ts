/**
 * /health/connections: a background prober. First round FirstProbeDelaySeconds (default 10)
 * after start, then every HealthCheckIntervalMinutes. Keys `sql:{environment}/{connectionKey}`
 * for databases and `rabbitmq:{destinationKey}` for RabbitMQ destinations (the only broker kind
 * Wharf ships; other destination kinds are not probed). Before the first round: `{}`.
 */
import type { SyncConfig } from '../config/model.js';
import { errorText } from '../engine/deliver.js';
import { probeBroker, probeDatabase, type DriverLookup } from './probes.js';

export interface ConnectionEntry {
  readonly is_healthy: boolean;
  readonly last_error: string | null;
}

interface Target {
  readonly key: string;
  probe(): Promise<void>;
}

function targetsOf(config: SyncConfig, lookup: DriverLookup | undefined): Target[] {
  const targets: Target[] = [];
  for (const env of config.environments) {
    for (const [key, connectionString] of Object.entries(env.connectionStrings)) {
      targets.push({ key: `sql:${env.name}/${key}`, probe: () => probeDatabase({ provider: env.provider, connectionString }, lookup) });
    }
    for (const d of env.destinations) {
      if (d.type === 'RabbitMQ') targets.push({ key: `rabbitmq:${d.key}`, probe: () => probeBroker(d.url) });
    }
  }
  return targets;
}

export class ConnectionProber {
  private results = new Map<string, ConnectionEntry>();
  private failures = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly config: () => SyncConfig,
    private readonly lookup: DriverLookup | undefined,
  ) {}

  start(): void {
    const { health } = this.config().service;
    this.schedule(health.firstProbeDelaySeconds * 1000);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.round().finally(() => this.schedule(this.config().service.health.checkIntervalMinutes * 60_000));
    }, ms);
    this.timer.unref();
  }

  /** One probe of every target (also used by tests). */
  async round(): Promise<void> {
    const targets = targetsOf(this.config(), this.lookup);
    const next = new Map<string, ConnectionEntry>();
    await Promise.all(
      targets.map(async (t) => {
        try {
          await t.probe();
          this.failures.set(t.key, 0);
          next.set(t.key, { is_healthy: true, last_error: null });
        } catch (error) {
          const n = (this.failures.get(t.key) ?? 0) + 1;
          this.failures.set(t.key, n);
          next.set(t.key, { is_healthy: false, last_error: `${n} consecutive failure(s): ${errorText(error)}` });
        }
      }),
    );
    this.results = next;
  }

  snapshot(): Record<string, ConnectionEntry> {
    return Object.fromEntries([...this.results].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
