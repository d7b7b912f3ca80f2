/**
 * The sync dashboard's sign-in lockout (five wrong administrator keys a minute) was one counter for
 * the whole process: anyone who could reach the port kept the operator out by sending five wrong
 * keys a minute. It now counts per client address: the address that sent the wrong keys is locked
 * (429), another address still signs in with the right key. Real listening service, real sockets:
 * the second client connects from 127.0.0.2 (loopback, a different source address).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { projectWith } from '../sync/sync-fixture.js';

const KEY = 'lockout-admin-key-0123456789';
let sync: RunningSync;

beforeAll(async () => {
  const root = await projectWith({}, { Health: { Port: 0, Host: '127.0.0.1' }, WebHost: { Enabled: true, AdminKey: KEY } });
  sync = await startSync({ root, logLevel: 'silent' });
}, 60_000);
afterAll(async () => {
  await sync?.close();
});

/** POST /ui/api/session from `localAddress`. */
function signIn(key: string, localAddress: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL('/ui/api/session', sync.healthUrl as string);
  const body = JSON.stringify({ key });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

it('a second address can still sign in while the first is locked', async () => {
  for (let i = 0; i < 5; i++) expect(await signIn(`wrong-key-${i}`, '127.0.0.1')).toMatchObject({ status: 401, body: { success: false, error: 'The administrator key is not correct.' } });
  const locked = await signIn(KEY, '127.0.0.1');
  expect(locked.status).toBe(429);
  expect(locked.body['error']).toMatch(/^Too many wrong administrator keys\. Try again in \d+ seconds\.$/);
  expect(await signIn(KEY, '127.0.0.2')).toMatchObject({ status: 200, body: { signed_in: true } });
  // the locked address stays locked
  expect((await signIn(KEY, '127.0.0.1')).status).toBe(429);
});
