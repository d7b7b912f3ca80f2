/**
 * Sessions one caller can pile up: every sign-in stored a session row, and an expired one was
 * deleted only when its cookie came back, so signing in again and again grew the account store
 * without bound. Now a sign-in drops expired sessions and keeps the account's newest
 * SESSIONS_PER_ACCOUNT: the oldest session ends (401), the others keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { signIn, type ConsoleSession } from '../admin/console-client.js';

const SEED = 'demo-password-1';
/** SESSIONS_PER_ACCOUNT (runtime/admin/account-store.ts), as docs/console-api.md states it. */
const SESSIONS_PER_ACCOUNT = 50;
let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: [{ kind: 'sql', routePath: 'Inventory/Products' }] },
    serverSettings: {
      Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] },
      WebUi: { SeedPassword: SEED, SignInAttemptsPerIp: 1000 },
      RateLimiting: { IpLimit: 10_000 },
    },
  });
});
afterAll(() => server.close());

describe('sessions per account', () => {
  it(`one sign-in beyond ${SESSIONS_PER_ACCOUNT} ends the oldest session; the newest ${SESSIONS_PER_ACCOUNT} work`, async () => {
    const sessions: ConsoleSession[] = [];
    for (let i = 0; i <= SESSIONS_PER_ACCOUNT; i++) sessions.push(await signIn(server.app, 'admin', SEED));
    const oldest = await sessions[0]!.request('GET', '/ui/api/overview');
    expect(oldest.statusCode).toBe(401);
    expect(oldest.json()).toEqual({ error: 'Unauthorized', message: 'Sign in to the console or send a bearer token with scope *.' });
    for (const session of [sessions[1]!, sessions.at(-1)!]) expect((await session.request('GET', '/ui/api/overview')).statusCode).toBe(200);
  }, 60_000);
});
