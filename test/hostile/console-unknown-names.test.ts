/**
 * The account lockout told which usernames exist: five wrong passwords for a real account gave
 * 401 four times, then 429 "Too many failed sign-ins for this account" (Retry-After 900); for a name
 * without an account every attempt was 401, for ever. Now a well-formed name without an account is
 * counted and locked the same way (in the account store, so on every instance sharing it; at most
 * UNKNOWN_NAMES_KEPT names): the answers for both are the same, status, body and Retry-After.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayOf } from '../../runtime/gateway-handle.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { postSignIn, signInServer } from '../admin/console-client.js';

let server: TestServer;
beforeAll(async () => {
  server = await signInServer();
  await gatewayOf(server.app).console.accounts.create('real-user', 'real-password-12', 'viewer');
});
afterAll(() => server.close());

/** Status, body and Retry-After; the seconds a lock has left (899 or 900) written as N. */
const answer = (response: LightMyRequestResponse) => ({
  status: response.statusCode,
  body: response.body.replace(/\d+ seconds/, 'N seconds'),
  retryAfter: response.headers['retry-after'] === undefined ? null : Number(response.headers['retry-after']) >= 899,
});

async function sevenWrong(username: string) {
  const answers = [];
  for (let i = 0; i < 7; i++) answers.push(answer(await postSignIn(server.app, username, `wrong-password-${i}`)));
  return answers;
}

describe('wrong passwords for a real account and for a name without one', () => {
  it('get the same answers: 401 four times, then 429 locked with Retry-After', async () => {
    const real = await sevenWrong('real-user');
    const unknown = await sevenWrong('no-such-user');
    expect(real.map((a) => a.status)).toEqual([401, 401, 401, 401, 429, 429, 429]);
    expect(unknown).toEqual(real);
    expect(real[4]!.body).toBe('{"error":"Too many requests","message":"Too many failed sign-ins for this account. Try again in N seconds."}');
  });

  it('names differing only in case are one name, as accounts are', async () => {
    const locked = answer(await postSignIn(server.app, 'NO-SUCH-USER', 'wrong-password-x'));
    expect(locked.status).toBe(429);
    expect(answer(await postSignIn(server.app, 'REAL-USER', 'wrong-password-x'))).toEqual(locked);
  });
});
