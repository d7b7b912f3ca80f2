import { describe, expect, it } from 'vitest';
import { WharfError } from '../../errors/wharf-error.js';
import { AdminSessions, SESSION_TTL_SECONDS } from './admin-session.js';

const KEY = 'the-admin-key-0123456789';

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
    const a = sessions.signIn(KEY);
    const b = sessions.signIn(KEY);
    expect(codeOf(() => sessions.authorize(a.id, a.csrf))).toBeNull();
    expect(codeOf(() => sessions.authorize(a.id, b.csrf))).toBe('SYNC_DASHBOARD_CSRF');
    expect(codeOf(() => sessions.authorize(a.id, undefined))).toBe('SYNC_DASHBOARD_CSRF');
    expect(codeOf(() => sessions.authorize('made-up', a.csrf))).toBe('SYNC_DASHBOARD_UNAUTHORIZED');
  });

  it('ends after the session lifetime', () => {
    const { clock, sessions } = setup();
    const s = sessions.signIn(KEY);
    clock.now += SESSION_TTL_SECONDS * 1000 - 1;
    expect(sessions.find(s.id)).toEqual({ csrf: s.csrf });
    clock.now += 1;
    expect(sessions.find(s.id)).toBeNull();
  });

  it('ends when the key changes, and is read-only when the key is removed', () => {
    const { clock, sessions } = setup();
    const s = sessions.signIn(KEY);
    clock.key = 'another-admin-key-0123456789';
    expect(codeOf(() => sessions.authorize(s.id, s.csrf))).toBe('SYNC_DASHBOARD_UNAUTHORIZED');
    clock.key = null;
    expect(codeOf(() => sessions.signIn(KEY))).toBe('SYNC_DASHBOARD_READ_ONLY');
    expect(codeOf(() => sessions.authorize(s.id, s.csrf))).toBe('SYNC_DASHBOARD_READ_ONLY');
  });

  it('locks sign-in after five wrong keys for the rest of the minute', () => {
    const { clock, sessions } = setup();
    for (const wrong of ['a', KEY.slice(0, -1), `${KEY}x`, '', 42]) expect(codeOf(() => sessions.signIn(wrong))).toBe('SYNC_DASHBOARD_KEY_INVALID');
    expect(codeOf(() => sessions.signIn(KEY))).toBe('SYNC_DASHBOARD_SIGN_IN_RATE_LIMITED');
    clock.now += 60_000;
    expect(codeOf(() => sessions.signIn(KEY))).toBeNull();
  });
});
