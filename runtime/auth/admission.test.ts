/**
 * admitCached (no await: token from the verification cache, counters in memory) must answer
 * exactly like admit(): same status, same headers, same counting, request after request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientIpResolver } from '../traffic/client-ip.js';
import { MemoryCounterStore } from '../traffic/counter-store.js';
import { RateLimiter, type RateLimitSettings } from '../traffic/rate-limiter.js';
import { admit, admitCached, type AccessControl, type Admission } from './admission.js';
import { SqliteTokenStore } from './store/sqlite-store.js';
import { TokenService } from './tokens.js';

const CLOCK = 1_800_000_000_000;
const now = (): number => CLOCK;

let dir: string;
let store: SqliteTokenStore;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'wharf-admission-'));
  store = new SqliteTokenStore(path.join(dir, 'auth.db'));
  token = (await new TokenService(store).create({ username: 'alice' })).token;
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function control(limits: Partial<RateLimitSettings> | null): AccessControl {
  const settings = { enabled: true, ipLimit: 100, ipWindowSeconds: 60, tokenLimit: 100, tokenWindowSeconds: 60, ...limits };
  return {
    tokens: new TokenService(store, { now }),
    clientIp: new ClientIpResolver({ knownProxies: [], knownNetworks: [] }),
    limiter: limits === null ? null : new RateLimiter(settings, new MemoryCounterStore(now), now),
  };
}

/** What a response shows of an admission: status and headers. */
function seen(a: Admission): string {
  return `${a.error?.status ?? 200} ${a.principal?.username ?? '-'} ${JSON.stringify(a.error?.status === 429 ? a.error.headers : a.headers)}`;
}

const CASES: readonly [string, { limits: Partial<RateLimitSettings> | null; authorization: () => string | undefined; requests: number }][] = [
  ['no limiter, valid token', { limits: null, authorization: () => `Bearer ${token}`, requests: 3 }],
  ['no limiter, no token', { limits: null, authorization: () => undefined, requests: 2 }],
  ['limits, valid token until the token budget runs out', { limits: { tokenLimit: 3 }, authorization: () => `Bearer ${token}`, requests: 5 }],
  ['limits, valid token until the IP budget runs out', { limits: { ipLimit: 2 }, authorization: () => `Bearer ${token}`, requests: 4 }],
  ['limits, no token: 401 until the IP budget runs out, then 429', { limits: { ipLimit: 2 }, authorization: () => undefined, requests: 4 }],
  ['limits, malformed token', { limits: {}, authorization: () => 'Bearer nope', requests: 2 }],
];

describe('admitCached answers like admit', () => {
  it.each(CASES)('%s', async (_name, c) => {
    const slow = control(c.limits);
    const fast = control(c.limits);
    const headers = (): Record<string, string> => {
      const authorization = c.authorization();
      return authorization === undefined ? {} : { authorization };
    };
    // both verify the token once through the store (the cache is empty at first)
    await slow.tokens.verify(token);
    await fast.tokens.verify(token);
    const want: string[] = [];
    const got: string[] = [];
    for (let i = 0; i < c.requests; i += 1) {
      want.push(seen(await admit(slow, '198.51.100.7', headers())));
      const cached = admitCached(fast, '198.51.100.7', headers());
      expect(cached, 'answered without waiting').not.toBeNull();
      got.push(seen(cached!));
    }
    expect(got).toEqual(want);
  });

  it('leaves a token the cache does not know to admit(), counting nothing', async () => {
    const fresh = control({ ipLimit: 1 });
    expect(admitCached(fresh, '198.51.100.7', { authorization: `Bearer ${token}` })).toBeNull();
    expect(seen(await admit(fresh, '198.51.100.7', { authorization: `Bearer ${token}` }))).toMatch(/^200 alice /);
  });
});
