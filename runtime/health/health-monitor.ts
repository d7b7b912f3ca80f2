/**
 * Runs the checks in the background every `refreshSeconds` and keeps the last report; requests
 * read the cached report and never wait for a probe (only the very first request after start may
 * wait for the first run). A change of the overall status is published to the listeners of
 * onChange (the log line; the console subscribes for its SSE `health` event): health knows no reader.
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

export class HealthMonitor {
  private report: HealthReport | null = null;
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
    if (previous !== report.status) for (const listener of this.listeners) listener(report.status, previous);
    return report;
  }
}
