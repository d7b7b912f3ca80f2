import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteTokenStore } from './store/sqlite-store.js';
import { UsernameTakenError } from './store/token-store.js';
import { hashToken } from './token-secret.js';
import { TokenInputError, TokenService } from './tokens.js';

const DAY = 86_400_000;
let dir: string;
let store: SqliteTokenStore;
let clock: number;
const now = (): number => clock;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wharf-tokens-'));
  store = new SqliteTokenStore(path.join(dir, 'auth.db'));
  clock = Date.UTC(2026, 0, 1);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('token values', () => {
  it('are whf_-prefixed, carry 256 random bits and are stored only as a SHA-256 hash', async () => {
    const service = new TokenService(store, { now });
    const a = await service.create({ username: 'alice', allowedScopes: 'read', allowedEnvironments: 'dev' });
    const b = await service.create({ username: 'bob' });
    expect(a.token).toMatch(/^whf_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.token.slice(-43), 'base64url')).toHaveLength(32);
    expect(a.token).not.toBe(b.token);
    expect(a.record.tokenHash).toBe(hashToken(a.token));
    expect(a.record).toMatchObject({ allowedScopes: 'read', allowedEnvironments: 'dev', expiresAt: null });
    await service.rotate(b.record.id);

    // every byte of the store (db, WAL, shared memory) without any token or its secret part
    const bytes = readdirSync(dir)
      .map((name) => readFileSync(path.join(dir, name)).toString('latin1'))
      .join('\n');
    expect(bytes).toContain(a.record.lookupId); // the reading itself works: the non-secret id is there
    expect(bytes).toContain(a.record.tokenHash);
    for (const token of [a.token, b.token]) {
      expect(bytes).not.toContain(token);
      expect(bytes).not.toContain(token.slice(-43));
    }
  });
});

describe('verify', () => {
  it('accepts the token, rejects malformed, unknown and altered values', async () => {
    const service = new TokenService(store, { now });
    const { token, record } = await service.create({ username: 'alice' });
    expect(await service.verify(token)).toMatchObject({ ok: true, cached: false, principal: { tokenId: record.id } });
    expect(await service.verify(token)).toMatchObject({ ok: true, cached: true });
    const altered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const TABLE: [string, string][] = [
      ['', 'malformed'],
      ['secret', 'malformed'],
      [token + 'x', 'malformed'],
      [altered, 'unknown'],
      [`whf_000000000000_${token.slice(-43)}`, 'unknown'],
    ];
    for (const [value, reason] of TABLE) expect(await service.verify(value)).toEqual({ ok: false, reason });
  });

  it('rejects an expired token, also while its verification is cached', async () => {
    const service = new TokenService(store, { now, verificationCacheMs: 10 * DAY });
    const { token } = await service.create({ username: 'alice', expiresInDays: 1 });
    expect((await service.verify(token)).ok).toBe(true);
    clock += DAY - 1;
    expect(await service.verify(token)).toMatchObject({ ok: true, cached: true });
    clock += 1;
    expect(await service.verify(token)).toEqual({ ok: false, reason: 'expired' });
    expect(await new TokenService(store, { now }).verify(token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('rotation: the old token revoked (value rejected at once), a new token with a new id, username and scopes kept', async () => {
    const service = new TokenService(store, { now });
    const old = await service.create({ username: 'alice', allowedScopes: 'read', expiresInDays: 30 });
    expect((await service.verify(old.token)).ok).toBe(true); // cached now
    const rotated = await service.rotate(old.record.id);
    expect(rotated?.record).toMatchObject({
      username: 'alice',
      allowedScopes: 'read',
      expiresAt: old.record.expiresAt,
      revokedAt: null,
    });
    expect(rotated!.record.id).not.toBe(old.record.id);
    expect(rotated!.previous).toMatchObject({ id: old.record.id, revokedAt: clock });
    expect(await service.verify(old.token)).toEqual({ ok: false, reason: 'revoked' });
    expect(await service.verify(rotated!.token)).toMatchObject({ ok: true, principal: { tokenId: rotated!.record.id } });
    expect((await service.audit(old.record.id)).map((entry) => entry.operation)).toEqual(['Revoked', 'Created']);
    expect(await service.rotate(old.record.id)).toBeNull();
  });

  it('revocation: next request on this instance, other instances after their cache TTL', async () => {
    const here = new TokenService(store, { now, verificationCacheMs: 5000 });
    const there = new TokenService(store, { now, verificationCacheMs: 5000 });
    const { token, record } = await here.create({ username: 'alice' });
    expect((await here.verify(token)).ok).toBe(true);
    expect((await there.verify(token)).ok).toBe(true);
    expect((await here.revoke(record.id))?.revokedAt).toBe(clock);
    expect(await here.verify(token)).toEqual({ ok: false, reason: 'revoked' });
    expect(await there.verify(token)).toMatchObject({ ok: true, cached: true }); // within its TTL
    clock += 5000;
    expect(await there.verify(token)).toEqual({ ok: false, reason: 'revoked' });
    expect(await here.revoke(record.id)).toBeNull();

    expect((await here.unarchive(record.id))?.revokedAt).toBeNull();
    expect((await there.verify(token)).ok).toBe(true);
    expect(await here.unarchive(record.id)).toBeNull();
    expect((await here.audit(record.id)).map((entry) => entry.operation)).toEqual(['Unarchived', 'Revoked', 'Created']);
  });

  it('an unarchived token that has expired stays unusable', async () => {
    const service = new TokenService(store, { now });
    const { token, record } = await service.create({ username: 'alice', expiresInDays: 1 });
    await service.revoke(record.id);
    clock += 2 * DAY;
    await service.unarchive(record.id);
    expect(await service.verify(token)).toEqual({ ok: false, reason: 'expired' });
  });
});

describe('create input', () => {
  const TABLE: [string, Parameters<TokenService['create']>[0], string][] = [
    ['empty username', { username: ' ' }, 'username must be 1 to 100 characters of letters, digits, . _ @ -'],
    ['username with space', { username: 'a b' }, 'username must be 1 to 100 characters of letters, digits, . _ @ -'],
    ['zero days', { username: 'a', expiresInDays: 0 }, 'expires_in_days must be a whole number from 1 to 36500'],
    ['empty scopes', { username: 'a', allowedScopes: ' , ' }, 'allowed_scopes must not be empty (use * for all)'],
    ['bad scope', { username: 'a', allowedScopes: 'read,wr ite' }, "allowed_scopes contains an invalid item 'wr ite'"],
    ['bad env', { username: 'a', allowedEnvironments: 'dev;prod' }, "allowed_environments contains an invalid item 'dev;prod'"],
  ];
  it.each(TABLE)('%s', async (_name, input, message) => {
    const service = new TokenService(store, { now });
    await expect(service.create(input)).rejects.toEqual(new TokenInputError(message));
    expect(await store.count()).toBe(0);
  });

  it('normalises lists and refuses a taken username', async () => {
    const service = new TokenService(store, { now });
    const { record } = await service.create({ username: 'a', allowedScopes: ' read , Inventory/* ', allowedEnvironments: 'dev, test' });
    expect(record).toMatchObject({ allowedScopes: 'read,Inventory/*', allowedEnvironments: 'dev,test' });
    await expect(service.create({ username: 'A' })).rejects.toBeInstanceOf(UsernameTakenError);
  });
});
