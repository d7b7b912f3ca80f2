import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backoffMs } from '../engine/object-sync.js';
import { DeadLetterStore } from './dead-letters.js';

const NOW = Date.parse('2026-06-10T12:00:00Z');
const HOUR = 3_600_000;
const input = (n: number, error: string) => ({ environment: 'e', object: 'o', destination: 'd', database: 'main', data: `{"n":${n}}`, fromVersion: n, toVersion: n + 1, error });

describe('DeadLetterStore', () => {
  it('is not created by reads; the summary counts by age and names the most common error of the last 24 h', async () => {
    const store = DeadLetterStore.at(await mkdtemp(path.join(tmpdir(), 'wharf-dl-')));
    expect(store.summary(NOW)).toEqual({ TotalCount: 0, LastHourCount: 0, Last24HoursCount: 0, Last7DaysCount: 0, MostCommonError: '', MostCommonErrorCount: 0 });
    expect(store.exists()).toBe(false);
    store.add(input(1, 'HTTP 503'), 0, NOW - 10 * 60_000);
    store.add(input(2, 'timeout'), 0, NOW - 2 * HOUR);
    store.add(input(3, 'timeout'), 0, NOW - 3 * HOUR);
    store.add(input(4, 'HTTP 503'), 0, NOW - 3 * 24 * HOUR);
    store.add(input(5, 'HTTP 503'), 0, NOW - 4 * 24 * HOUR);
    store.add(input(6, 'old'), 0, NOW - 10 * 24 * HOUR);
    store.add(input(1, 'HTTP 503 again'), 0, NOW - 5 * 60_000); // same batch: re-opened, not duplicated
    expect(store.summary(NOW)).toEqual({ TotalCount: 6, LastHourCount: 1, Last24HoursCount: 3, Last7DaysCount: 5, MostCommonError: 'timeout', MostCommonErrorCount: 2 });
    expect(store.expire(7, NOW)).toBe(1);
    expect(store.list().map((l) => l.fromVersion)).toEqual([1, 2, 3, 4, 5]);
    store.close();
  });

  it('replay backoff doubles up to the cap', () => {
    const settings = { replayIntervalSeconds: 60, maxReplayAttempts: 5, backoffBaseSeconds: 60, backoffCapSeconds: 21600, retentionDays: 30 };
    expect([1, 2, 3, 8, 20].map((n) => backoffMs(n, settings) / 1000)).toEqual([120, 240, 480, 15360, 21600]);
  });
});

describe('DeadLetterStore listing for the dashboard', () => {
  it('lists the newest letters first, at most the limit, without reading their batches; counts per object', async () => {
    const store = DeadLetterStore.at(await mkdtemp(path.join(tmpdir(), 'wharf-dl-')));
    expect(store.latest(10)).toEqual([]);
    expect(store.countsByObject()).toEqual(new Map());
    const big = 'x'.repeat(100_000);
    for (let n = 1; n <= 5; n++) store.add({ ...input(n, 'HTTP 503'), data: `{"n":${n},"pad":"${big}"}` }, 0, NOW + n);
    store.add({ ...input(9, 'timeout'), object: 'other' }, 0, NOW + 9);
    const latest = store.latest(3);
    expect(latest.map((l) => [l.object, l.fromVersion])).toEqual([['other', 9], ['o', 5], ['o', 4]]);
    for (const l of latest) expect(l).not.toHaveProperty('data');
    // the same fields list() gives, but the batch
    const { data: _data, ...full } = store.list().find((l) => l.fromVersion === 5)!;
    expect(latest[1]).toEqual(full);
    expect(store.countsByObject()).toEqual(new Map([['e/o', 5], ['e/other', 1]]));
    store.close();
  });
});
