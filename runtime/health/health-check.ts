/** One health check's result (spec "Check object") and the aggregation rule. */

export const HEALTH_STATUSES = ['Healthy', 'Degraded', 'Unhealthy'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export interface CheckResult {
  readonly name: string;
  readonly status: HealthStatus;
  readonly description: string;
  /** e.g. `12.34ms`. */
  readonly duration: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly tags: readonly string[];
}

export type CheckOutcome = Omit<CheckResult, 'name' | 'duration' | 'tags'>;

export interface HealthCheck {
  readonly name: string;
  readonly tags: readonly string[];
  run(): Promise<CheckOutcome>;
}

/** The worst status: any Unhealthy -> Unhealthy, else any Degraded -> Degraded, else Healthy. */
export function worst(statuses: readonly HealthStatus[]): HealthStatus {
  let index = 0;
  for (const status of statuses) index = Math.max(index, HEALTH_STATUSES.indexOf(status));
  return HEALTH_STATUSES[index]!;
}

export function formatDuration(ms: number): string {
  return `${ms.toFixed(2)}ms`;
}

/** Runs a check and times it; a check that throws is Unhealthy with data.error. */
export async function runCheck(check: HealthCheck): Promise<CheckResult> {
  const started = performance.now();
  let outcome: CheckOutcome;
  try {
    outcome = await check.run();
  } catch (error) {
    outcome = { status: 'Unhealthy', description: `${check.name} check failed`, data: { error: (error as Error).message } };
  }
  return { name: check.name, ...outcome, duration: formatDuration(performance.now() - started), tags: check.tags };
}
