/**
 * Real PostgreSQL -> wharf sync -> real RabbitMQ (started on loopback by test/setup/rabbitmq.ts):
 * changes arrive at a consumer in order; the broker going down gives retries, a dead letter and
 * a replay once it is back, nothing lost or skipped; the same for a broker restart while several
 * batches await their confirms; kill -9 of the sync process mid-run and a restart deliver every
 * change at least once with state.db intact.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import amqp, { type ChannelModel } from 'amqplib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishBatch, rawPublisher } from '../../runtime/sync/destinations/rabbitmq-frames.js';
import { DEFAULT_HEARTBEAT_SECONDS, withDefaultHeartbeat } from '../../runtime/sync/destinations/rabbitmq.js';
import { corkEachWriteRound } from '../../runtime/sync/destinations/rabbitmq-writes.js';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { brokerPid, rabbitAvailable, startRabbit, type TestRabbit } from '../setup/rabbitmq.js';
import { insertProducts, installOutbox, pgEnvironment, projectWith, sql, until } from './sync-fixture.js';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Received {
  readonly id: string;
  readonly version: number;
  readonly operation: string;
  readonly body: Record<string, unknown>;
  /** The message's header names, sorted. */
  readonly headers: string[];
  readonly persistent: boolean;
}

let db: TestPostgres;
let rabbit: TestRabbit;
const consumers: ChannelModel[] = [];
let closing = false;

/** A consumer that reconnects when the broker comes back (unacked messages are redelivered). */
async function consume(queue: string, received: Received[] = []): Promise<Received[]> {
  const connection = await amqp.connect(rabbit.url);
  consumers.push(connection);
  connection.on('error', () => undefined);
  connection.on('close', () => {
    if (closing) return;
    const retry = (): void => void consume(queue, received).catch(() => setTimeout(retry, 500));
    setTimeout(retry, 500);
  });
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  await channel.assertQueue(queue, { durable: true });
  await channel.prefetch(500);
  await channel.consume(queue, (message) => {
    if (!message) return;
    received.push({
      id: String(message.properties.messageId),
      version: Number(message.properties.headers?.['x-wharf-version']),
      operation: String(message.properties.type),
      body: JSON.parse(message.content.toString()) as Record<string, unknown>,
      headers: Object.keys(message.properties.headers ?? {}).sort(),
      persistent: message.properties.deliveryMode === 2,
    });
    channel.ack(message);
  });
  return received;
}

function rabbitDestination(queue: string) {
  return { Type: 'RabbitMQ', Key: 'events', Url: rabbit.url, Exchange: `wharf.${queue}`, Queue: queue };
}

/** Versions in first-seen order; redeliveries are dropped the way a consumer de-duplicates. */
function deduplicated(received: readonly Received[]): number[] {
  const seen = new Set<string>();
  return received.filter((r) => !seen.has(r.id) && seen.add(r.id)).map((r) => r.version);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe.skipIf(!rabbitAvailable)('sync to RabbitMQ', () => {
  beforeAll(async () => {
    [db, rabbit] = await Promise.all([startPostgres(), startRabbit()]);
    await installOutbox(db.url);
  }, 120_000);

  afterAll(async () => {
    closing = true;
    await Promise.all(consumers.map((c) => c.close().catch(() => undefined)));
    await Promise.all([db?.stop(), rabbit?.stop()]);
  });

  describe('one running service', () => {
    let sync: RunningSync;
    let received: Received[];
    let base = 0;

    beforeAll(async () => {
      received = await consume('orders-products');
      const root = await projectWith(
        { staging: pgEnvironment(db.url, [rabbitDestination('orders-products')], { MaxRecordsPerBatch: 3 }) },
        { Health: { Enabled: false }, DeadLetters: { BackoffBaseSeconds: 0.5, ReplayIntervalSeconds: 0.2, MaxReplayAttempts: 100 } },
      );
      sync = await startSync({ root, logLevel: 'silent' });
      base = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version;
    });
    afterAll(async () => sync?.close());

    it('inserts, updates and deletes arrive in order, persistent, with object+version message ids', async () => {
      const [a, b] = await insertProducts(db.url, 2, 'MQ-');
      await sql(db.url, `UPDATE inventory."Products" SET "UnitPrice" = 1.50 WHERE "ProductId" = $1`, [a]);
      await sql(db.url, `DELETE FROM inventory."Products" WHERE "ProductId" = $1`, [b]);
      await until('4 messages', () => received.length >= 4);
      expect(received.map((r) => [r.id, r.operation, r.body['ProductId']])).toEqual([
        [`staging/Products/${base + 1}`, 'I', a],
        [`staging/Products/${base + 2}`, 'I', b],
        [`staging/Products/${base + 3}`, 'U', a],
        [`staging/Products/${base + 4}`, 'D', b],
      ]);
      expect(received[2]?.body).toMatchObject({ $operation: 'U', $version: base + 3, UnitPrice: 1.5, Sku: 'MQ-1' });
      for (const message of received) {
        expect(message).toMatchObject({ persistent: true, headers: ['x-wharf-environment', 'x-wharf-object', 'x-wharf-operation', 'x-wharf-version'] });
      }
      await until('state advanced', () => sync.service.state.get('staging', 'Products')?.version === base + 4);
    });

    it('broker down: retries, a dead letter that blocks the object, replay after the restart, nothing lost or skipped', async () => {
      const before = received.length;
      const start = (sync.service.state.get('staging', 'Products')?.version ?? 0) + 1;
      await sync.prober.round();
      expect(sync.prober.snapshot()).toEqual({ 'rabbitmq:events': { is_healthy: true, last_error: null }, 'sql:staging/main': { is_healthy: true, last_error: null } });
      await rabbit.halt();
      await sync.prober.round();
      expect(sync.prober.snapshot()['rabbitmq:events']?.last_error).toMatch(/^1 consecutive failure\(s\): /);
      await insertProducts(db.url, 5, 'DOWN-');
      const letter = await until('a dead letter', () => sync.service.deadLetters.list({ environment: 'staging', object: 'Products' })[0]);
      expect(letter).toMatchObject({ sourceKey: 'staging/Products/events', destination: 'events', fromVersion: start - 1, toVersion: start + 2, status: 'pending' });
      expect(sync.service.deadLetters.summary()).toMatchObject({ TotalCount: 1, LastHourCount: 1, Last24HoursCount: 1, Last7DaysCount: 1, MostCommonErrorCount: 1 });
      // Blocked: the version stays before the dead-lettered batch while the broker is down.
      await insertProducts(db.url, 2, 'WHILE-DOWN-');
      expect(sync.service.state.get('staging', 'Products')?.version).toBe(start - 1);
      await rabbit.start();
      await until('all 7 changes', () => new Set(received.slice(before).map((r) => r.id)).size >= 7, 90_000);
      expect(deduplicated(received.slice(before))).toEqual(range(start, start + 6));
      await until('dead letter resolved', () => sync.service.deadLetters.list().length === 0);
      await until('state caught up', () => sync.service.state.get('staging', 'Products')?.version === start + 6);
    }, 180_000);
  });

  it('MessageHeaders false: the same persistent messages (id, type, body, order) without the x-wharf-* headers', async () => {
    const received = await consume('bare-products');
    const root = await projectWith({ staging: pgEnvironment(db.url, [{ ...rabbitDestination('bare-products'), MessageHeaders: false }]) }, { Health: { Enabled: false } });
    const sync = await startSync({ root, logLevel: 'silent' });
    try {
      const start = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version + 1;
      const [a, b] = await insertProducts(db.url, 2, 'BARE-');
      await sql(db.url, `DELETE FROM inventory."Products" WHERE "ProductId" = $1`, [a]);
      await until('3 messages', () => received.length >= 3, 5000);
      expect(received.map((r) => [r.id, r.operation, r.body['ProductId'], r.body['$version'], r.persistent, r.headers])).toEqual([
        [`staging/Products/${start}`, 'I', a, start, true, []],
        [`staging/Products/${start + 1}`, 'I', b, start + 1, true, []],
        [`staging/Products/${start + 2}`, 'D', a, start + 2, true, []],
      ]);
      await until('state advanced', () => sync.service.state.get('staging', 'Products')?.version === start + 2);
    } finally {
      await sync.close();
    }
  });

  it('ExchangeType direct with a Queue: the queue is bound with each routing key as filled in (per operation here), so every change reaches it', async () => {
    const received = await consume('direct-products');
    const destination = { ...rabbitDestination('direct-products'), ExchangeType: 'direct', RoutingKey: '{environment}.{object}.{operation}' };
    const root = await projectWith({ staging: pgEnvironment(db.url, [destination]) }, { Health: { Enabled: false } });
    const sync = await startSync({ root, logLevel: 'silent' });
    try {
      const start = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version + 1;
      const [a, b] = await insertProducts(db.url, 2, 'DIRECT-');
      await sql(db.url, `DELETE FROM inventory."Products" WHERE "ProductId" = $1`, [a]);
      await until('state advanced', () => sync.service.state.get('staging', 'Products')?.version === start + 2);
      await until('3 messages', () => received.length >= 3, 5000);
      expect(received.map((r) => [r.id, r.operation, r.body['ProductId']])).toEqual([
        [`staging/Products/${start}`, 'I', a],
        [`staging/Products/${start + 1}`, 'I', b],
        [`staging/Products/${start + 2}`, 'D', a],
      ]);
    } finally {
      await sync.close();
    }
  });

  it('MessagePer Batch: one persistent message per batch, with x-wharf-from-version and x-wharf-version, none with MessageHeaders false', async () => {
    const withHeaders = await consume('batch-products');
    const without = await consume('batch-bare-products');
    const root = await projectWith(
      {
        staging: pgEnvironment(
          db.url,
          [
            { ...rabbitDestination('batch-products'), MessagePer: 'Batch' },
            { ...rabbitDestination('batch-bare-products'), Key: 'bare', MessagePer: 'Batch', MessageHeaders: false },
          ],
          { MaxRecordsPerBatch: 1000 },
        ),
      },
      { Health: { Enabled: false } },
    );
    const sync = await startSync({ root, logLevel: 'silent' });
    try {
      const start = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version + 1;
      await insertProducts(db.url, 3, 'BATCH-');
      await until('a batch on each queue', () => withHeaders.length >= 1 && without.length >= 1);
      await until('state advanced', () => sync.service.state.get('staging', 'Products')?.version === start + 2);
      for (const [messages, headers] of [[withHeaders, ['x-wharf-from-version', 'x-wharf-version']], [without, []]] as const) {
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatchObject({ id: `staging/Products/${start + 2}`, operation: 'batch', persistent: true, headers });
        expect(messages[0]?.body).toMatchObject({ environment: 'staging', object: 'Products', fromVersion: start - 1, version: start + 2, count: 3 });
      }
    } finally {
      await sync.close();
    }
  });

  it('broker restarted while batches await their confirms (MaxBatchesInFlight 8): every change arrives, in version order, none skipped', async () => {
    const received = await consume('window-products');
    const root = await projectWith(
      // Retries that outlast the restart: the refused batch is delivered by its retry, and the
      // batches that were behind it in the window must then be sent again (no dead letter here;
      // the dead-letter path is the test above).
      { staging: pgEnvironment(db.url, [rabbitDestination('window-products')], { MaxRecordsPerBatch: 100, MaxBatchesInFlight: 8, RetryCount: 100, RetryDelaySeconds: 0.2 }) },
      { Health: { Enabled: false } },
    );
    const log = new PassThrough();
    const lines: string[] = [];
    log.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
    const sync = await startSync({ root, logLevel: 'warn', logStream: log });
    try {
      const start = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version + 1;
      // Changes keep coming while the broker stops and starts again, so batches are on their way when it goes.
      const transactions = 40;
      const writes = (async () => {
        for (let i = 0; i < transactions; i++) await insertProducts(db.url, 300, `WINDOW-${i}-`);
      })();
      await until('some changes delivered', () => received.length >= 1000, 60_000);
      await rabbit.restart();
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
    expect(withDefaultHeartbeat(rabbit.url)).toBe(`${rabbit.url}?heartbeat=${DEFAULT_HEARTBEAT_SECONDS}`);
    expect(withDefaultHeartbeat(`${rabbit.url}/?heartbeat=3`)).toBe(`${rabbit.url}/?heartbeat=3`); // the Url's own wins
    const received = await consume('frozen-products');
    const root = await projectWith(
      { staging: pgEnvironment(db.url, [rabbitDestination('frozen-products')], { MaxRecordsPerBatch: 50, RetryCount: 100, RetryDelaySeconds: 1 }) },
      { Health: { Enabled: false } },
    );
    const log = new PassThrough();
    const lines: string[] = [];
    log.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
    const sync = await startSync({ root, logLevel: 'warn', logStream: log });
    const pid = brokerPid(rabbit.port);
    let frozen = false;
    try {
      const start = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version + 1;
      await insertProducts(db.url, 100, 'BEFORE-FREEZE-');
      await until('the first changes', () => new Set(received.map((r) => r.id)).size >= 100, 60_000);
      process.kill(pid, 'SIGSTOP');
      frozen = true;
      const stoppedAt = Date.now();
      await insertProducts(db.url, 100, 'FROZEN-');
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

  it("amqplib's writer corked per round: 1,000 published messages leave in far fewer socket writes, all confirmed and received in order", async () => {
    const received = await consume('cork-products');
    const count = async (corked: boolean): Promise<number> => {
      const model = await amqp.connect(rabbit.url);
      try {
        if (corked) expect(corkEachWriteRound(model), 'amqplib writer has the expected shape').toBe(true);
        const socket = (model as unknown as { connection: { stream: { _write: (...a: unknown[]) => void; _writev?: (...a: unknown[]) => void } } }).connection.stream;
        let writes = 0;
        for (const name of ['_write', '_writev'] as const) {
          const original = socket[name];
          if (!original) continue;
          socket[name] = (...args: unknown[]) => {
            writes++;
            return original.apply(socket, args);
          };
        }
        const channel = await model.createConfirmChannel();
        await channel.assertQueue('cork-products', { durable: true });
        for (let i = 0; i < 1000; i++) channel.sendToQueue('cork-products', Buffer.from(JSON.stringify({ i, corked, pad: 'x'.repeat(200) })), { persistent: true, messageId: `${corked}/${i}` });
        await channel.waitForConfirms();
        return writes;
      } finally {
        await model.close();
      }
    };
    const plain = await count(false);
    const corked = await count(true);
    expect(plain, 'one socket write per message without corking').toBeGreaterThanOrEqual(1000);
    expect(corked, `socket writes for 1,000 messages: ${corked} corked, ${plain} not`).toBeLessThan(200);
    await until('2,000 messages', () => received.length >= 2000);
    expect(received.map((r) => r.id)).toEqual([...range(0, 999).map((i) => `false/${i}`), ...range(0, 999).map((i) => `true/${i}`)]);
  });

  it('messages encoded by rabbitmq-frames.ts: the raw publisher exists on the installed amqplib; a batch encoded by PublishBatch, 1,000 persistent messages in two writes onto the channel, each confirmed, arriving in order with their properties; a closed channel refuses', async () => {
    const received = await consume('encoded-products');
    const model = await amqp.connect(rabbit.url);
    try {
      const channel = await model.createConfirmChannel();
      await channel.assertQueue('encoded-products', { durable: true });
      const raw = rawPublisher(channel);
      expect(raw, 'amqplib confirm channel has the expected shape').not.toBeNull();
      const batch = new PublishBatch(raw!.channel, raw!.frameMax);
      for (let i = 0; i < 1000; i++) {
        const version = 5000 + i;
        const operation = i % 3 === 2 ? 'D' : 'U';
        const properties = {
          contentType: 'application/json',
          headers: [['x-wharf-environment', 'encoded'], ['x-wharf-object', 'Products'], ['x-wharf-version', version], ['x-wharf-operation', operation]] as const,
          messageId: `encoded/Products/${version}`,
          timestamp: 1_764_157_500,
          type: operation,
        };
        expect(batch.add('', 'encoded-products', properties, JSON.stringify({ $version: version, name: 'Größe ✓', pad: 'x'.repeat(200) }))).toBe(true);
      }
      const { chunks, count } = batch.take();
      expect(count).toBe(1000);
      expect(chunks.length, 'buffers of 256 KiB: about 420 kB of frames in two').toBeLessThanOrEqual(2);
      let confirmed = 0;
      let refused: Error | null = null;
      expect(raw!.publishMany(chunks, count, (error) => (error ? (refused = error) : confirmed++))).toBe(true);
      await until('1,000 confirms', () => confirmed === 1000 || refused);
      expect(refused).toBeNull();
      await until('1,000 messages', () => received.length >= 1000);
      expect(received.map((r) => [r.id, r.version, r.operation, r.body['$version'], r.body['name'], r.persistent, r.headers.length])).toEqual(
        range(5000, 5999).map((v) => [`encoded/Products/${v}`, v, (v - 5000) % 3 === 2 ? 'D' : 'U', v, 'Größe ✓', true, 4]),
      );
      await channel.close();
      expect(raw!.publishMany([Buffer.alloc(0)], 1, () => undefined), 'nothing is written on a closed channel').toBe(false);
    } finally {
      await model.close();
    }
  });

  it('kill -9 mid-run, restart: every change delivered at least once, in order, state.db intact', async () => {
    const received = await consume('kill-products');
    const root = await projectWith({ staging: pgEnvironment(db.url, [rabbitDestination('kill-products')], { MaxRecordsPerBatch: 200 }) }, { Health: { Enabled: false } });
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
    await insertProducts(db.url, total, 'KILL-');
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
