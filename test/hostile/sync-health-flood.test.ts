/**
 * `/health` of the sync service opens a real connection to every unique database (spec 3B rule 2)
 * and needs no authentication. Before its first answer is cached (or with CacheDurationSeconds 0),
 * every concurrent request started its own probes: a burst of N requests while a database hangs
 * opened N connections to it, each held for the 5 s timeout (a caller could exhaust the
 * database's connection slots). Concurrent evaluations now share one round of probes.
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { pgEnvironment, projectWith } from '../sync/sync-fixture.js';

/** A database that accepts connections and never answers (as a SIGSTOPped server does). */
let hung: net.Server;
const held: net.Socket[] = [];
let sync: RunningSync;

beforeAll(async () => {
  hung = net.createServer((socket) => {
    held.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const port = (hung.address() as net.AddressInfo).port;
  const environment = pgEnvironment('postgres://postgres@127.0.0.1:1/none', [{ Type: 'File', Key: 'f', Path: 'o/{version}.json' }], {
    ConnectionStrings: { main: 'postgres://postgres@127.0.0.1:1/none', reports: `postgres://postgres@127.0.0.1:${port}/reports` },
  });
  const root = await projectWith({ staging: environment }, { Health: { Port: 0, CacheDurationSeconds: 0, FirstProbeDelaySeconds: 3600 } });
  sync = await startSync({ root, logLevel: 'silent' });
});

afterAll(async () => {
  await sync?.close();
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => hung?.close(resolve));
});

it('20 concurrent /health requests while a database hangs open one connection to it, and all answer', async () => {
  const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${sync.healthUrl}/health`).then(async (r) => [r.status, await r.json()] as const)));
  for (const [status, body] of answers) {
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'degraded', checks: { database: { status: 'failed (all)' } } });
  }
  expect(held.length).toBe(1);
}, 20_000);
