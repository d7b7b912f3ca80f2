/** HealthMonitor publishes status changes to its subscribers (the log, the console); it knows none of them. */
import { describe, expect, it } from 'vitest';
import type { CheckOutcome, HealthCheck } from './health-check.js';
import { HealthMonitor } from './health-monitor.js';

function switchable(first: CheckOutcome['status']): HealthCheck & { status: CheckOutcome['status'] } {
  const check = {
    name: 'switch',
    tags: [],
    status: first,
    run: async (): Promise<CheckOutcome> => ({ status: check.status, description: check.status, data: {} }),
  };
  return check;
}

describe('HealthMonitor.onChange', () => {
  it('tells every subscriber each change of the overall status (the first run included), not a repeat; unsubscribe stops it', async () => {
    const check = switchable('Healthy');
    const monitor = new HealthMonitor([check], 60_000);
    const seen: [string, string | null][] = [];
    const other: string[] = [];
    monitor.onChange((status, previous) => seen.push([status, previous]));
    const off = monitor.onChange((status) => other.push(status));
    try {
      await monitor.current();
      await monitor.refresh();
      check.status = 'Unhealthy';
      await monitor.refresh();
      off();
      check.status = 'Degraded';
      await monitor.refresh();
      expect(seen).toEqual([
        ['Healthy', null],
        ['Unhealthy', 'Healthy'],
        ['Degraded', 'Unhealthy'],
      ]);
      expect(other).toEqual(['Healthy', 'Unhealthy']);
    } finally {
      await monitor.stop();
    }
  });
});
