import { describe, expect, it } from 'vitest';
import { LogRing } from './log-ring.js';

const line = (msg: string, level = 30, time = 1_700_000_000_000) => `${JSON.stringify({ level, time, msg })}\n`;

describe('LogRing', () => {
  it('keeps the last `capacity` lines, newest first, across wrap-around', async () => {
    const ring = new LogRing(3);
    for (let i = 1; i <= 5; i++) ring.write(line(`m${i}`));
    await new Promise((r) => setImmediate(r));
    expect(ring.query(null, null).map((e) => e.message)).toEqual(['m5', 'm4', 'm3']);
  });

  it('splits a chunk of several lines, ignores non-JSON, filters by level and text', async () => {
    const ring = new LogRing(10);
    ring.write(line('alpha', 30) + 'not json\n' + line('beta failed', 50) + line('gamma', 40));
    await new Promise((r) => setImmediate(r));
    expect(ring.query(null, null).map((e) => `${e.level}:${e.message}`)).toEqual(['Warning:gamma', 'Error:beta failed', 'Information:alpha']);
    expect(ring.query('Error', null).map((e) => e.message)).toEqual(['beta failed']);
    expect(ring.query(null, 'GAM').map((e) => e.message)).toEqual(['gamma']);
  });

  it('redacts secrets before any query answers them', async () => {
    const ring = new LogRing(10);
    ring.write(line('token whf_0123456789ab_' + 'A'.repeat(43) + ' with Bearer abc.def and postgres://u:p@h/db'));
    await new Promise((r) => setImmediate(r));
    const [entry] = ring.query(null, null);
    expect(entry?.message).not.toMatch(/whf_0123|abc\.def|u:p@/);
  });
});
