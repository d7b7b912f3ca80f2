/**
 * The verified-JWT cache (runtime/auth/jwt/jwt-verifier.ts) against a real OpenID provider on
 * loopback: a token's signature is checked once, then its result is reused until `exp`, never
 * across a new key set (a withdrawn key stops verifying), never for a failure, and never beyond the
 * cache's size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwtVerifier } from '../../runtime/auth/jwt/jwt-verifier.js';
import type { JwtSettings } from '../../runtime/auth/jwt/jwt-settings.js';
import { signToken, startOidcProvider, type LocalIdp } from '../setup/oidc.js';

const AUDIENCE = 'http://wharf.test/cache';
let idp: LocalIdp;

function settings(): JwtSettings {
  return {
    issuer: idp.issuer,
    audience: AUDIENCE,
    jwksUrl: null,
    scopesClaim: 'scope',
    environmentsClaim: null,
    clockSkewSeconds: 0,
    keysRefreshSeconds: 3600,
    keysTimeoutMs: 15_000,
    keysCooldownSeconds: 0,
  };
}

const token = (sub: string, expIn = 300): Promise<string> => signToken(idp, AUDIENCE, { sub, scope: 'read', exp: Math.floor(Date.now() / 1000) + expIn });

beforeAll(async () => {
  idp = await startOidcProvider({ audience: AUDIENCE, scopes: ['read'], clients: [] });
});

afterAll(async () => {
  await idp?.close();
});

describe('verified JWT cache', () => {
  it('checks a signature once, then reuses the result (the same principal) until exp', async () => {
    let now = Date.now();
    const verifier = new JwtVerifier(settings(), { now: () => now });
    await verifier.keys.refresh();
    const jwt = await token('alice', 60);
    const first = await verifier.verify(jwt);
    const second = await verifier.verify(jwt);
    expect(first).toMatchObject({ ok: true, cached: false, principal: { username: 'alice' } });
    expect(second).toMatchObject({ ok: true, cached: true });
    expect(second.ok && first.ok && second.principal).toBe(first.ok && first.principal);
    expect(verifier.cachedCount).toBe(1);
    now += 61_000; // past exp: the remembered result is not used (the full check decides)
    expect(await verifier.verify(jwt)).toMatchObject({ cached: false });
  });

  it('a new key set starts over: a token of a withdrawn key is refused although it was remembered', async () => {
    const verifier = new JwtVerifier(settings());
    await verifier.keys.refresh();
    const jwt = await token('bob');
    expect(await verifier.verify(jwt)).toMatchObject({ ok: true, cached: false });
    expect(await verifier.verify(jwt)).toMatchObject({ ok: true, cached: true });
    await idp.rotate(false); // the provider withdraws the key that signed it
    await verifier.keys.refresh();
    expect(await verifier.verify(jwt)).toEqual({ ok: false, reason: 'unknown' });
    const fresh = await token('bob');
    expect(await verifier.verify(fresh)).toMatchObject({ ok: true, cached: false });
  });

  it('never remembers a failure, and keeps at most its size (the oldest go first)', async () => {
    const verifier = new JwtVerifier(settings(), { cacheSize: 2 });
    await verifier.keys.refresh();
    const good = await token('carol');
    const forged = `${good.slice(0, good.lastIndexOf('.') + 1)}${'A'.repeat(good.length - good.lastIndexOf('.') - 1)}`;
    expect(await verifier.verify(forged)).toEqual({ ok: false, reason: 'unknown' });
    expect(await verifier.verify(forged)).toEqual({ ok: false, reason: 'unknown' });
    expect(verifier.cachedCount).toBe(0);
    const [a, b, c] = [await token('a'), await token('b'), await token('c')];
    for (const jwt of [a, b, c]) await verifier.verify(jwt);
    expect(verifier.cachedCount).toBe(2);
    expect(await verifier.verify(a)).toMatchObject({ ok: true, cached: false }); // pushed out by c
    expect(await verifier.verify(c)).toMatchObject({ ok: true, cached: true });
  });
});
