/**
 * The account store contract and token updates on every store: SQLite (the token store's file)
 * and a real, throw-away PostgreSQL (the shared store), opened the way the server opens them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgres } from '../../test/setup/postgres.js';
import { openTokenStore } from '../auth/store/open-store.js';
import type { TokenStoreSettings } from '../auth/store/open-store.js';
import { TokenConflictError, TokenService } from '../auth/tokens.js';
import { IdentityLinkedError } from './account-store.js';
import { AccountRuleError, AccountService } from './accounts.js';
import { openAccountStore } from './open-account-store.js';
import { SessionService } from './sessions.js';

const dir = mkdtempSync(path.join(tmpdir(), 'wharf-accounts-store-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const SETTINGS: [string, () => Promise<TokenStoreSettings>][] = [
  ['sqlite', async () => ({ provider: 'Sqlite', file: path.join(dir, 'auth.db'), connectionString: null, timeoutMs: 2000 })],
  [
    'postgres',
    async () => {
      const server = await startPostgres({ sql: 'SELECT 1' });
      cleanups.push(() => server.stop());
      return { provider: 'Postgres', file: '', connectionString: server.url, timeoutMs: 2000 };
    },
  ],
];

describe.each(SETTINGS)('%s', (_name, settingsOf) => {
  it('accounts, lockout counters, sessions and token updates', async () => {
    const settings = await settingsOf();
    const store = await openAccountStore(settings);
    const tokens = await openTokenStore(settings);
    cleanups.push(async () => {
      await store.close();
      await tokens.close();
    });
    const accounts = new AccountService(store);
    expect(await accounts.ensureFirstAdmin('first-password')).toEqual({ username: 'admin', oneTimePassword: null });
    expect(await accounts.ensureFirstAdmin(null)).toBeNull();
    await accounts.create('viewer1', 'viewer-password', 'viewer');
    await expect(accounts.create('VIEWER1', 'viewer-password', 'viewer')).rejects.toThrow(AccountRuleError);
    expect((await accounts.list()).map((a) => [a.username, a.role, a.disabled])).toEqual([
      ['admin', 'administrator', false],
      ['viewer1', 'viewer', false],
    ]);
    const failed = await accounts.signIn('admin', 'wrong-password');
    expect(failed).toEqual({ ok: false, reason: 'invalid' });
    expect((await store.findByName('ADMIN'))!.failedAttempts).toBe(1);
    const ok = await accounts.signIn('admin', 'first-password');
    expect(ok.ok && ok.account.failedAttempts).toBe(0);

    const sessions = new SessionService(store, 60_000);
    const session = await sessions.create((await store.findByName('admin'))!);
    expect((await sessions.resolve(session.id))?.account.username).toBe('admin');
    await accounts.setRole('viewer1', 'administrator');
    await accounts.setRole('admin', 'viewer');
    expect((await sessions.resolve(session.id))?.account.role).toBe('viewer');
    await accounts.setDisabled('admin', true);
    expect(await sessions.resolve(session.id)).toBeNull();

    // one-time sign-in CSRF values: consumed once, by whichever service shares the store; expiry honoured
    const csrf = await sessions.issueCsrf(60_000);
    const elsewhere = new SessionService(store, 60_000);
    expect(await Promise.all([sessions.consumeCsrf(csrf), elsewhere.consumeCsrf(csrf)])).toEqual([true, false]);
    expect(await sessions.consumeCsrf(csrf)).toBe(false);
    expect(await sessions.consumeCsrf('never-issued')).toBe(false);
    let clock = 1_000;
    const timed = new SessionService(store, 60_000, () => clock);
    const short = await timed.issueCsrf(500);
    clock = 1_500;
    expect(await timed.consumeCsrf(short)).toBe(false);
    await expect(accounts.delete('viewer1')).rejects.toThrow("Cannot delete 'viewer1': it is the last active administrator");
    await accounts.delete('admin');
    expect((await accounts.list()).map((a) => a.username)).toEqual(['viewer1']);

    const service = new TokenService(tokens);
    const full = await service.create({ username: 'full' });
    const other = await service.create({ username: 'other', allowedScopes: 'read' });
    const updated = await service.update(other.record.id, { description: 'edited', allowedEnvironments: 'dev', expiresAt: 5_000_000_000_000 });
    expect([updated!.description, updated!.allowedEnvironments, updated!.expiresAt]).toEqual(['edited', 'dev', 5_000_000_000_000]);
    await expect(service.update(full.record.id, { allowedScopes: 'read' })).rejects.toThrow(TokenConflictError);
    expect(await service.update(9999, { description: 'x' })).toBeNull();
    expect((await service.audit(other.record.id)).map((entry) => [entry.operation, entry.details])).toEqual([
      ['Updated', 'Token updated: description, allowedEnvironments, expiresAt'],
      ['Created', 'Token created for other'],
    ]);
  }, 60_000);

  it('a new session drops expired sessions and the account\'s oldest beyond the cap; CSRF values beyond the cap go oldest first', async () => {
    const store = await openAccountStore(await settingsOf());
    cleanups.push(() => store.close());
    const row = (idHash: string, accountId: number, createdAt: number, expiresAt: number) => ({ idHash, accountId, csrf: 'c', createdAt, expiresAt });
    await store.insertSession(row('expired', 7, 1_000, 2_000), 3);
    await store.insertSession(row('other-account', 8, 1_000, 99_000), 3);
    // expired ones were kept until presented, so they piled up
    await store.insertSession(row('s1', 7, 3_000, 99_000), 3);
    expect(await store.findSession('expired')).toBeNull();
    await store.insertSession(row('s2', 7, 4_000, 99_000), 3);
    await store.insertSession(row('s3', 7, 5_000, 99_000), 3);
    await store.insertSession(row('s4', 7, 6_000, 99_000), 3);
    expect(await Promise.all(['s1', 's2', 's3', 's4', 'other-account'].map(async (hash) => (await store.findSession(hash)) !== null))).toEqual([false, true, true, true, true]);
    await store.insertCsrf('v1', 10_000, 1_000, 2);
    await store.insertCsrf('v2', 11_000, 1_000, 2);
    await store.insertCsrf('v3', 12_000, 1_000, 2);
    expect([await store.consumeCsrf('v1', 1_000), await store.consumeCsrf('v2', 1_000), await store.consumeCsrf('v3', 1_000)]).toEqual([false, true, true]);
  }, 60_000);

  it('failed sign-ins of names without an account: counted, locked, and at most `keep` names kept (the oldest go)', async () => {
    const store = await openAccountStore(await settingsOf());
    cleanups.push(() => store.close());
    expect(await store.unknownNameLock('ghost')).toBeNull();
    expect([await store.addUnknownNameAttempt('ghost', 2), await store.addUnknownNameAttempt('ghost', 2)]).toEqual([1, 2]);
    await store.lockUnknownName('ghost', 5_000);
    expect(await store.unknownNameLock('ghost')).toBe(5_000);
    expect(await store.addUnknownNameAttempt('ghost', 2)).toBe(1);
    await store.addUnknownNameAttempt('n2', 2);
    await store.addUnknownNameAttempt('n3', 2);
    // 'ghost' was the oldest of three names: gone, its count starts over
    expect(await store.unknownNameLock('ghost')).toBeNull();
    expect([await store.addUnknownNameAttempt('n2', 2), await store.addUnknownNameAttempt('n3', 2)]).toEqual([2, 2]);
    expect(await store.addUnknownNameAttempt('ghost', 2)).toBe(1);
  }, 60_000);

  it('single sign-on identities: one account per iss+sub, one identity per issuer and account, gone with the account', async () => {
    const store = await openAccountStore(await settingsOf());
    cleanups.push(() => store.close());
    const accounts = new AccountService(store);
    const a = await accounts.create('sso-a', 'sso-password-1', 'viewer');
    const b = await accounts.create('sso-b', 'sso-password-2', 'viewer');
    const iss = 'http://127.0.0.1:1/idp';
    await store.linkIdentity({ accountId: a.id, issuer: iss, subject: 'alice', linkedAt: 1 });
    expect((await store.findByIdentity(iss, 'alice'))?.username).toBe('sso-a');
    expect(await store.findByIdentity(iss, 'ALICE')).toBeNull();
    expect(await store.findByIdentity('http://other', 'alice')).toBeNull();
    await expect(store.linkIdentity({ accountId: b.id, issuer: iss, subject: 'alice', linkedAt: 2 })).rejects.toThrow(IdentityLinkedError);
    await expect(store.linkIdentity({ accountId: a.id, issuer: iss, subject: 'alice2', linkedAt: 2 })).rejects.toThrow(IdentityLinkedError);
    expect(await store.identitiesOf(a.id)).toEqual([{ accountId: a.id, issuer: iss, subject: 'alice', linkedAt: 1 }]);
    expect(await store.unlinkIdentity(b.id, iss)).toBe(false);
    expect(await store.unlinkIdentity(a.id, iss)).toBe(true);
    expect(await store.findByIdentity(iss, 'alice')).toBeNull();
    await store.linkIdentity({ accountId: b.id, issuer: iss, subject: 'alice', linkedAt: 3 });
    await accounts.delete('sso-b');
    expect(await store.findByIdentity(iss, 'alice')).toBeNull();
    await accounts.delete('sso-a');
  }, 60_000);
});
