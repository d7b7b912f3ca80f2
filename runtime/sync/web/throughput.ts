/**
 * Records delivered per tracked object over a sliding window (five minutes): the dashboard's
 * throughput column. Fed by the sync service's onDelivered hook (run.ts); in memory only, so it
 * starts from zero with the process.
 */

const WINDOW_MS = 5 * 60_000;

interface Delivery {
  readonly at: number;
  readonly records: number;
}

export class ThroughputMeter {
  private readonly deliveries = new Map<string, Delivery[]>();
  private readonly startedAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  record(environment: string, object: string, records: number): void {
    const key = `${environment}/${object}`;
    const list = this.prune(key);
    list.push({ at: this.now(), records });
    this.deliveries.set(key, list);
  }

  /** Records per minute over the window (or over the time since start, when that is shorter). */
  perMinute(environment: string, object: string): number {
    const list = this.prune(`${environment}/${object}`);
    const total = list.reduce((sum, d) => sum + d.records, 0);
    const spanMs = Math.max(1000, Math.min(WINDOW_MS, this.now() - this.startedAt));
    return Math.round((total * 60_000 * 10) / spanMs) / 10;
  }

  private prune(key: string): Delivery[] {
    const since = this.now() - WINDOW_MS;
    const list = (this.deliveries.get(key) ?? []).filter((d) => d.at > since);
    this.deliveries.set(key, list);
    return list;
  }
}
