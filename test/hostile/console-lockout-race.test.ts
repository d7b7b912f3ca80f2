/**
 * The account lockout (5 wrong passwords in a row, then 15 minutes) under concurrent attempts. Old
 * behaviour: each attempt read the counter, checked the password (scrypt, asynchronous) and wrote
 * counter + 1, so a burst of wrong passwords sent at once each read 0 and wrote 1: every one of
 * them was checked, the account never locked, and a guesser spread over enough addresses could try
 * far more than 5 passwords per lockout. Now each attempt takes its place in the counter before the
 * password is checked: at most 5 are checked, the rest are refused as locked, and the account is
 * locked (also for the right password).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayOf } from '../../runtime/gateway-handle.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { postSignIn, signInServer } from '../admin/console-client.js';

let server: TestServer;
beforeAll(async () => {
  server = await signInServer();
  await gatewayOf(server.app).console.accounts.create('target', 'target-password-1', 'viewer');
});
afterAll(() => server.close());

describe('20 wrong passwords for one account at once', () => {
  it('at most 5 are checked (401), the rest 429 locked; then the right password is locked out too', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => postSignIn(server.app, 'target', `wrong-password-${i}`)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(15);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    const right = await postSignIn(server.app, 'target', 'target-password-1');
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ error: 'Too many requests', message: expect.stringMatching(/^Too many failed sign-ins for this account\. Try again in \d+ seconds\.$/) });
  }, 60_000);
});
