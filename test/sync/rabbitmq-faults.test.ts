/**
 * The RabbitMQ sync under faults of the real processes: the broker restarted while batches await
 * their confirms, the broker frozen (SIGSTOP) mid-run, and the sync killed (kill -9) mid-run and
 * started again; every change arrives, in version order, none skipped, state.db intact.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_SECONDS, withDefaultHeartbeat } from '../../runtime/sync/destinations/rabbitmq.js';
import { startSync } from '../../runtime/sync/run.js';
import { brokerPid, rabbitAvailable } from '../setup/rabbitmq.js';
import { capturedLog, deduplicated, range, useRabbitSync } from './rabbitmq-fixture.js';
import { insertProducts, pgEnvironment, projectWith, until } from './sync-fixture.js';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe.skipIf(!rabbitAvailable)('sync to RabbitMQ under faults', () => {
  const env = useRabbitSync();
  const { consume, destination: rabbitDestination } = env;

  it('broker restarted while batches await their confirms (MaxBatchesInFlight 8): every change arrives, in version order, none skipped', async () => {
    const received = await consume('window-products');
    const root = await projectWith(
      // Retries that outlast the restart: the refused batch is delivered by its retry, and the
      // batches that were behind it in the window must then be sent again (no dead letter here;
      // the dead-letter path is rabbitmq.test.ts, "broker down").
      { staging: pgEnvironment(env.db.url, [rabbitDestination('window-products')], { MaxRecordsPerBatch: 100, MaxBatchesInFlight: 8, RetryCount: 100, RetryDelaySeconds: 0.2 }) },
      { Health: { Enabled: false } },
    );
    const { stream, lines } = capturedLog();
    const sync = await startSync({ root, logLevel: 'warn', logStream: stream });
    try {
      const start = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version + 1;
      // Changes keep coming while the broker stops and starts again, so batches are on their way when it goes.
      const transactions = 40;
      const writes = (async () => {
        for (let i = 0; i < transactions; i++) await insertProducts(env.db.url, 300, `WINDOW-${i}-`);
      })();
      await until('some changes delivered', () => received.length >= 1000, 60_000);
      await env.rabbit.restart();
      await writes;
      const total = transactions * 300;
      await until('every change delivered', () => new Set(received.map((r) => r.id)).size >= total, 180_000);
      expect(deduplicated(received)).toEqual(range(start, start + total - 1));
      await until('state caught up', () => sync.service.state.get('staging', 'Products')?.version === start + total - 1, 60_000);
      expect(sync.service.deadLetters.list()).toEqual([]);
      expect(lines.some((l) => l.includes('"event":"sync.delivery_failed"')), 'a delivery was refused while the broker was away').toBe(true);
    } finally {
      await sync.close();
    }
  }, 300_000);

  it('broker frozen (SIGSTOP) while changes are on their way: the connection is given up within the default heartbeat, and after SIGCONT every change arrives, in order', async () => {
    expect(withDefaultHeartbeat(env.rabbit.url)).toBe(`${env.rabbit.url}?heartbeat=${DEFAULT_HEARTBEAT_SECONDS}`);
    expect(withDefaultHeartbeat(`${env.rabbit.url}/?heartbeat=3`)).toBe(`${env.rabbit.url}/?heartbeat=3`); // the Url's own wins
    const received = await consume('frozen-products');
    const root = await projectWith(
      { staging: pgEnvironment(env.db.url, [rabbitDestination('frozen-products')], { MaxRecordsPerBatch: 50, RetryCount: 100, RetryDelaySeconds: 1 }) },
      { Health: { Enabled: false } },
    );
    const { stream, lines } = capturedLog();
    const sync = await startSync({ root, logLevel: 'warn', logStream: stream });
    const pid = brokerPid(env.rabbit.port);
    let frozen = false;
    try {
      const start = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version + 1;
      await insertProducts(env.db.url, 100, 'BEFORE-FREEZE-');
      await until('the first changes', () => new Set(received.map((r) => r.id)).size >= 100, 60_000);
      process.kill(pid, 'SIGSTOP');
      frozen = true;
      const stoppedAt = Date.now();
      await insertProducts(env.db.url, 100, 'FROZEN-');
      // without a heartbeat of its own the sync would wait for the broker's 60 s ones (two to three of them)
      await until('a refused delivery', () => lines.some((l) => l.includes('"event":"sync.delivery_failed"')), 3 * DEFAULT_HEARTBEAT_SECONDS * 1000 + 15_000);
      expect(Date.now() - stoppedAt).toBeLessThan(3 * DEFAULT_HEARTBEAT_SECONDS * 1000 + 15_000);
      expect(sync.service.state.get('staging', 'Products')?.version).toBeLessThan(start + 199);
      process.kill(pid, 'SIGCONT');
      frozen = false;
      await until('every change delivered', () => new Set(received.map((r) => r.id)).size >= 200, 120_000);
      expect(deduplicated(received)).toEqual(range(start, start + 199));
      await until('state caught up', () => sync.service.state.get('staging', 'Products')?.version === start + 199, 60_000);
      expect(sync.service.deadLetters.list()).toEqual([]);
    } finally {
      if (frozen) process.kill(pid, 'SIGCONT');
      await sync.close();
    }
  }, 240_000);

  it('kill -9 mid-run, restart: every change delivered at least once, in order, state.db intact', async () => {
    const received = await consume('kill-products');
    const root = await projectWith({ staging: pgEnvironment(env.db.url, [rabbitDestination('kill-products')], { MaxRecordsPerBatch: 200 }) }, { Health: { Enabled: false } });
    const state = path.join(root, 'data', 'sync', 'state.db');
    const run = (): ChildProcess => spawn(process.execPath, [path.join(repo, 'scripts', 'wharf.mjs'), 'sync', '--root', root], { cwd: repo, stdio: 'ignore' });
    const readVersion = (): number | null => {
      if (!existsSync(state)) return null;
      try {
        const file = new Database(state, { readonly: true, fileMustExist: true });
        try {
          expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
          return (file.prepare('SELECT LastVersion FROM LastVersions').get() as { LastVersion: number } | undefined)?.LastVersion ?? null;
        } finally {
          file.close();
        }
      } catch (error) {
        if (String(error).includes('unable to open') || String(error).includes('no such table')) return null;
        throw error;
      }
    };
    let child = run();
    const start = (await until('initial state', () => {
      const v = readVersion();
      return v === null ? null : { v };
    }, 60_000)).v + 1;
    const total = 6000;
    await insertProducts(env.db.url, total, 'KILL-');
    await until('some changes delivered', () => received.length >= 1000, 60_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const atKill = readVersion() as number;
    expect(atKill).toBeGreaterThanOrEqual(start - 1);
    expect(atKill).toBeLessThan(start + total - 1);
    child = run();
    try {
      await until('every change delivered', () => new Set(received.map((r) => r.id)).size >= total, 120_000);
      expect(deduplicated(received)).toEqual(range(start, start + total - 1));
      await until('state caught up', () => readVersion() === start + total - 1, 60_000);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 240_000);
});
