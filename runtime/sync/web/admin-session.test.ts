import { describe, expect, it } from 'vitest';
import { WharfError } from '../../errors/wharf-error.js';
import { AdminSessions, MAX_CLIENTS, SESSION_TTL_SECONDS } from './admin-session.js';

const KEY = 'the-admin-key-0123456789';
const HERE = '127.0.0.1';

function setup(key: string | null = KEY) {
  const clock = { now: 1_000_000, key };
  return { clock, sessions: new AdminSessions(() => clock.key, () => clock.now) };
}

const codeOf = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof WharfError ? error.code : String(error);
  }
};

describe('AdminSessions', () => {
  it('a session authorizes with its own CSRF token only', () => {
    const { sessions } = setup();
    const a = sessions.signIn(KEY, HERE);
    const b = sessions.signIn(KEY, HERE);
    expect(codeOf(() => sessions.authorize(a.id, a.csrf))).toBeNull();
    expect(codeOf(() => sessions.authorize(a.id, b.csrf))).toBe('SYNC_DASHBOARD_CSRF');
    expect(codeOf(() => sessions.authorize(a.id, undefined))).toBe('SYNC_DASHBOARD_CSRF');
    expect(codeOf(() => sessions.authorize('made-up', a.csrf))).toBe('SYNC_DASHBOARD_UNAUTHORIZED');
  });

  it('ends after the session lifetime', () => {
    const { clock, sessions } = setup();
    const s = sessions.signIn(KEY, HERE);
    clock.now += SESSION_TTL_SECONDS * 1000 - 1;
    expect(sessions.find(s.id)).toEqual({ csrf: s.csrf });
    clock.now += 1;
    expect(sessions.find(s.id)).toBeNull();
  });

  it('ends when the key changes, and is read-only when the key is removed', () => {
    const { clock, sessions } = setup();
    const s = sessions.signIn(KEY, HERE);
    clock.key = 'another-admin-key-0123456789';
    expect(codeOf(() => sessions.authorize(s.id, s.csrf))).toBe('SYNC_DASHBOARD_UNAUTHORIZED');
    clock.key = null;
    expect(codeOf(() => sessions.signIn(KEY, HERE))).toBe('SYNC_DASHBOARD_READ_ONLY');
    expect(codeOf(() => sessions.authorize(s.id, s.csrf))).toBe('SYNC_DASHBOARD_READ_ONLY');
  });

  it('locks sign-in after five wrong keys for the rest of the minute', () => {
    const { clock, sessions } = setup();
    for (const wrong of ['a', KEY.slice(0, -1), `${KEY}x`, '', 42]) expect(codeOf(() => sessions.signIn(wrong, HERE))).toBe('SYNC_DASHBOARD_KEY_INVALID');
    expect(codeOf(() => sessions.signIn(KEY, HERE))).toBe('SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED');
    clock.now += 60_000;
    expect(codeOf(() => sessions.signIn(KEY, HERE))).toBeNull();
  });

  it('counts wrong keys per client address: a second address signs in while the first is locked', () => {
    const { clock, sessions } = setup();
    for (let i = 0; i < 5; i++) expect(codeOf(() => sessions.signIn(`wrong-${i}`, '203.0.113.7'))).toBe('SYNC_DASHBOARD_KEY_INVALID');
    expect(codeOf(() => sessions.signIn(KEY, '203.0.113.7'))).toBe('SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED');
    expect(codeOf(() => sessions.signIn(KEY, '::ffff:203.0.113.7'))).toBe('SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED');
    expect(codeOf(() => sessions.signIn(KEY, '198.51.100.1'))).toBeNull();
    expect(codeOf(() => sessions.signIn(KEY, HERE))).toBeNull();
    clock.now += 60_000;
    expect(codeOf(() => sessions.signIn(KEY, '203.0.113.7'))).toBeNull();
  });

  it('counts an IPv6 client by its /64 (one host holds all of it)', () => {
    const { sessions } = setup();
    for (let i = 1; i <= 5; i++) expect(codeOf(() => sessions.signIn('wrong', `2001:db8:0:7::${i}`))).toBe('SYNC_DASHBOARD_KEY_INVALID');
    expect(codeOf(() => sessions.signIn(KEY, '2001:db8::7:abcd:ef01:2345:6789'))).toBe('SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED');
    expect(codeOf(() => sessions.signIn(KEY, '2001:0db8:0000:0007:ffff::1'))).toBe('SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED');
    expect(codeOf(() => sessions.signIn(KEY, '2001:db8:0:8::1'))).toBeNull();
  });

  it(`remembers at most ${MAX_CLIENTS} client addresses; the newest stay locked`, () => {
    const { sessions } = setup();
    const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    for (let n = 0; n < MAX_CLIENTS + 500; n++) expect(codeOf(() => sessions.signIn('wrong', address(n)))).toBe('SYNC_DASHBOARD_KEY_INVALID');
    expect(sessions.rememberedClients).toBe(MAX_CLIENTS);
    const last = address(MAX_CLIENTS + 499);
    for (let i = 0; i < 4; i++) expect(codeOf(() => sessions.signIn('wrong', last))).toBe('SYNC_DASHBOARD_KEY_INVALID');
    expect(codeOf(() => sessions.signIn(KEY, last))).toBe('SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED');
    expect(sessions.rememberedClients).toBe(MAX_CLIENTS);
  });
});
