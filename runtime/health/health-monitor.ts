/**
 * Runs the checks in the background every `refreshSeconds` and keeps the last report; requests
 * read the cached report and never wait for a probe (only the very first request after start may
 * wait for the first run). A change of the overall status is published to the listeners of
 * onChange (the log line; the console subscribes for its SSE `health` event): health knows no reader.
 * The last HISTORY_SIZE runs are kept, per check, as {at, status, ms} for the console's Health
 * page (GET /ui/api/health `history`).
 */
import type { CheckResult, HealthCheck, HealthStatus } from './health-check.js';
import { formatDuration, runCheck, worst } from './health-check.js';

export type StatusListener = (status: HealthStatus, previous: HealthStatus | null) => void;

export interface HealthReport {
  readonly status: HealthStatus;
  /** When the checks ran (ISO 8601). */
  readonly timestamp: string;
  readonly checks: readonly CheckResult[];
  readonly totalDuration: string;
}

/** One check in one run: when (ms since the epoch), its status, how long it took (ms). */
export interface CheckSample {
  readonly at: number;
  readonly status: HealthStatus;
  readonly ms: number;
}

/** Runs kept per check (120 at the default 30 s refresh: the last hour). */
export const HISTORY_SIZE = 120;

export class HealthMonitor {
  private report: HealthReport | null = null;
  private readonly samples = new Map<string, CheckSample[]>();
  private running: Promise<HealthReport> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly listeners = new Set<StatusListener>();

  constructor(
    private readonly checks: readonly HealthCheck[],
    private readonly refreshMs: number,
  ) {}

  /** Calls `listener` on every change of the overall status (the first run counts: previous null); returns the unsubscribe. */
  onChange(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the first run and the refresh timer (unref'd: it never keeps the process alive). */
  start(): void {
    if (this.timer || this.stopped) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run under way (it may hold database connections). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  /** Runs every check once (a run already under way is joined, not repeated). */
  refresh(): Promise<HealthReport> {
    this.running ??= this.runAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The cached report, or the first run's when there is none yet. */
  current(): Promise<HealthReport> {
    this.start();
    return this.report ? Promise.resolve(this.report) : this.refresh();
  }

  /** Each check's last runs, oldest first. */
  history(): Record<string, readonly CheckSample[]> {
    return Object.fromEntries([...this.samples].map(([name, list]) => [name, [...list]]));
  }

  private async runAll(): Promise<HealthReport> {
    const started = performance.now();
    const results = await Promise.all(this.checks.map((check) => runCheck(check)));
    const report: HealthReport = {
      status: worst(results.map((result) => result.status)),
      timestamp: new Date().toISOString(),
      checks: results,
      totalDuration: formatDuration(performance.now() - started),
    };
    const previous = this.report?.status ?? null;
    this.report = report;
    const at = Date.parse(report.timestamp);
    for (const result of results) {
      let list = this.samples.get(result.name);
      if (!list) this.samples.set(result.name, (list = []));
      list.push({ at, status: result.status, ms: Number.parseFloat(result.duration) });
      if (list.length > HISTORY_SIZE) list.shift();
    }
    if (previous !== report.status) for (const listener of this.listeners) listener(report.status, previous);
    return report;
  }
}
