/**
 * What token verification costs per request, cached and uncached (SQLite store), and the full
 * admission stage (IP limit + verify + token limit, in-memory counters). Prints the figures;
 * the bounds are generous (shared 2-core machine) and only catch an order-of-magnitude regression
 * such as a slow password hash or a table scan slipping in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit } from '../../runtime/auth/admission.js';
import { SqliteTokenStore } from '../../runtime/auth/store/sqlite-store.js';
import { TokenService } from '../../runtime/auth/tokens.js';
import { ClientIpResolver } from '../../runtime/traffic/client-ip.js';
import { MemoryCounterStore } from '../../runtime/traffic/counter-store.js';
import { RateLimiter } from '../../runtime/traffic/rate-limiter.js';

let dir: string;
let store: SqliteTokenStore;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'wharf-cost-'));
  store = new SqliteTokenStore(path.join(dir, 'auth.db'));
  const service = new TokenService(store);
  for (let i = 0; i < 1000; i += 1) await service.create({ username: `user${i}` }); // a realistic table
  token = (await service.create({ username: 'measured' })).token;
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function microsPerCall(count: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i += 1) await run(); // warm up
  const started = performance.now();
  for (let i = 0; i < count; i += 1) await run();
  return ((performance.now() - started) * 1000) / count;
}

describe('verification cost', () => {
  it('measures verify (cached, uncached) and the whole admission stage', async () => {
    const cached = new TokenService(store, { verificationCacheMs: 60_000 });
    const uncached = new TokenService(store, { verificationCacheMs: 0 });
    expect((await cached.verify(token)).ok).toBe(true);
    expect((await uncached.verify(token)).ok).toBe(true);
    const control = {
      tokens: cached,
      clientIp: new ClientIpResolver({ knownProxies: [], knownNetworks: [] }),
      limiter: new RateLimiter(
        { enabled: true, ipLimit: 1e9, ipWindowSeconds: 60, tokenLimit: 1e9, tokenWindowSeconds: 60 },
        new MemoryCounterStore(),
      ),
    };
    const headers = { authorization: `Bearer ${token}` };

    const figures = {
      verifyCachedMicros: await microsPerCall(20_000, () => cached.verify(token)),
      verifyUncachedMicros: await microsPerCall(5_000, () => uncached.verify(token)),
      admissionCachedMicros: await microsPerCall(20_000, () => admit(control, '127.0.0.1', headers)),
      rejectUnknownMicros: await microsPerCall(5_000, () => uncached.verify(`whf_000000000000_${'A'.repeat(43)}`)),
    };
    console.log('verification cost (µs per request):', JSON.stringify(figures, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(2)) : v)));
    expect(figures.verifyCachedMicros).toBeLessThan(200);
    expect(figures.verifyUncachedMicros).toBeLessThan(2000);
    expect(figures.admissionCachedMicros).toBeLessThan(500);
  });
});
