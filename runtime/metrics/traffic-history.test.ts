/** TrafficHistory: 10-second slots over the last hour, per endpoint, percentiles, window and bounds. */
import { describe, expect, it } from 'vitest';
import { MAX_ENDPOINTS, OTHER_ENDPOINT, STEP_SECONDS, TrafficHistory, WINDOW_SECONDS } from './traffic-history.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const START = 1_800_000_000_000; // a slot boundary (divisible by 10 s)

function clock(): { now: () => number; set: (ms: number) => void } {
  let at = START;
  return { now: () => at, set: (ms) => (at = ms) };
}

describe('TrafficHistory', () => {
  it('counts requests, 4xx and 5xx apart, 429s and cache lookups in the slot under way', () => {
    const c = clock();
    const history = new TrafficHistory(BOUNDS, c.now);
    history.record('sql:A', 200, 0.004, 'hit');
    history.record('sql:A', 404, 0.004, 'miss');
    history.record('sql:B', 500, 0.05, null);
    history.record('sql:B', 429, 0.0005, null);
    c.set(START + 4000);
    const all = history.series();
    expect(all.t).toHaveLength(WINDOW_SECONDS / STEP_SECONDS);
    expect(all.t.at(-1)).toBe(START / 1000);
    expect(all.requests.at(-1)).toBe(4);
    // the slot under way has lasted 4 s
    expect(all.requests_per_second.at(-1)).toBe(1);
    expect(all.error_4xx_percent.at(-1)).toBe(50);
    expect(all.error_5xx_percent.at(-1)).toBe(25);
    expect(all.rate_limited.at(-1)).toBe(1);
    expect(all.cache_hit_percent.at(-1)).toBe(50);
    expect(all.totals).toEqual({ requests: 4, errors_4xx: 2, errors_5xx: 1, rate_limited: 1, cache_hits: 1, cache_misses: 1 });
    // slots without a request: no latency and no error rate (gaps), zero requests
    expect(all.requests[0]).toBe(0);
    expect(all.latency_p50_ms[0]).toBeNull();
    expect(all.error_4xx_percent[0]).toBeNull();
    expect(all.top_by_traffic.map((e) => e.endpoint)).toEqual(['sql:A', 'sql:B']);
    expect(all.top_by_errors).toEqual([
      { endpoint: 'sql:B', requests: 2, errors_4xx: 1, errors_5xx: 1 },
      { endpoint: 'sql:A', requests: 2, errors_4xx: 1, errors_5xx: 0 },
    ]);
    expect(all.endpoints).toEqual(['sql:A', 'sql:B']);
    const b = history.series('sql:B');
    expect([b.endpoint, b.requests.at(-1), b.error_5xx_percent.at(-1)]).toEqual(['sql:B', 2, 50]);
  });

  it('estimates p50 and p99 from the latency buckets', () => {
    const c = clock();
    const history = new TrafficHistory(BOUNDS, c.now);
    for (let i = 0; i < 98; i += 1) history.record('sql:A', 200, 0.005, null);
    for (let i = 0; i < 2; i += 1) history.record('sql:A', 200, 0.5, null);
    const s = history.series();
    // 98 of 100 in (1 ms, 10 ms]: the median interpolates inside it; the 99th falls in (100 ms, 1 s]
    expect(s.latency_p50_ms.at(-1)).toBeGreaterThan(1);
    expect(s.latency_p50_ms.at(-1)).toBeLessThanOrEqual(10);
    expect(s.latency_p99_ms.at(-1)).toBeGreaterThan(100);
    expect(s.latency_p99_ms.at(-1)).toBeLessThanOrEqual(1000);
    expect(history.quantileMs([0, 0, 0, 0, 3], 0.5)).toBe(1000);
    expect(history.quantileMs([0, 0, 0, 0, 0], 0.5)).toBeNull();
  });

  it('moves to a new slot every 10 seconds and forgets what is older than the hour', () => {
    const c = clock();
    const history = new TrafficHistory(BOUNDS, c.now);
    history.record('sql:A', 200, 0.001, null);
    c.set(START + STEP_SECONDS * 1000);
    history.record('sql:A', 200, 0.001, null);
    history.record('sql:A', 200, 0.001, null);
    let s = history.series();
    expect(s.requests.slice(-2)).toEqual([1, 2]);
    expect(s.totals.requests).toBe(3);
    // an hour later the first slot is out of the window (its ring position is reused)
    c.set(START + WINDOW_SECONDS * 1000);
    history.record('sql:A', 200, 0.001, null);
    s = history.series();
    expect(s.totals.requests).toBe(3);
    expect(s.requests.at(-1)).toBe(1);
    c.set(START + 2 * WINDOW_SECONDS * 1000);
    expect(history.series().totals.requests).toBe(0);
  });

  it(`keeps at most ${MAX_ENDPOINTS} endpoints per slot, the rest under one name`, () => {
    const c = clock();
    const history = new TrafficHistory(BOUNDS, c.now);
    for (let i = 0; i < MAX_ENDPOINTS + 5; i += 1) history.record(`sql:E${i}`, 200, 0.001, null);
    const s = history.series();
    expect(s.endpoints).toHaveLength(MAX_ENDPOINTS + 1);
    expect(s.endpoints).toContain(OTHER_ENDPOINT);
    expect(s.totals.requests).toBe(MAX_ENDPOINTS + 5);
  });

  it('adds the slots other instances share, slot by slot, and leaves its own ring alone', () => {
    const c = clock();
    const a = new TrafficHistory(BOUNDS, c.now);
    const b = new TrafficHistory(BOUNDS, c.now);
    a.record('sql:A', 200, 0.004, 'hit');
    b.record('sql:A', 500, 0.5, 'miss');
    b.record('sql:B', 429, 0.0005, null);
    c.set(START + STEP_SECONDS * 1000);
    b.record('sql:B', 200, 0.004, null);
    const merged = a.series(null, [b.exportSlots(), [{ i: 1, a: [5, 0, 0], e: {}, r: 0, h: 0, m: 0 }]]);
    expect(merged.instances).toBe(3);
    expect(merged.requests.slice(-2)).toEqual([3, 1]);
    expect(merged.totals).toEqual({ requests: 4, errors_4xx: 1, errors_5xx: 1, rate_limited: 1, cache_hits: 1, cache_misses: 1 });
    expect(merged.top_by_traffic).toEqual([
      { endpoint: 'sql:A', requests: 2, errors_4xx: 0, errors_5xx: 1 },
      { endpoint: 'sql:B', requests: 2, errors_4xx: 1, errors_5xx: 0 },
    ]);
    expect(a.series('sql:B', [b.exportSlots()]).totals.requests).toBe(2);
    // its own numbers are unchanged by a merge
    expect(a.series().totals.requests).toBe(1);
  });
});
