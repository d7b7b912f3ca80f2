import { describe, expect, it } from 'vitest';
import { ThroughputMeter } from './throughput.js';

describe('ThroughputMeter', () => {
  const cases: [string, { deliveries: [number, number][]; at: number; want: number }][] = [
    ['nothing delivered', { deliveries: [], at: 60_000, want: 0 }],
    ['120 records in the first minute', { deliveries: [[10_000, 100], [50_000, 20]], at: 60_000, want: 120 }],
    ['averaged over the five-minute window', { deliveries: [[100_000, 300], [250_000, 300]], at: 300_000, want: 120 }],
    ['deliveries older than the window drop out', { deliveries: [[10_000, 1000], [400_000, 50]], at: 600_000, want: 10 }],
  ];
  it.each(cases)('%s', (_name, { deliveries, at, want }) => {
    let now = 0;
    const meter = new ThroughputMeter(() => now);
    for (const [when, records] of deliveries) {
      now = when;
      meter.record('env', 'Products', records);
    }
    now = at;
    expect(meter.perMinute('env', 'Products')).toBe(want);
    expect(meter.perMinute('env', 'Other')).toBe(0);
  });
});
