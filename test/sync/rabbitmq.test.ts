/**
 * Real PostgreSQL -> wharf sync -> real RabbitMQ (started on loopback by test/setup/rabbitmq.ts):
 * changes arrive at a consumer in order, persistent, with or without the x-wharf-* headers, one
 * message per change or per batch, through topic and direct exchanges; the broker going down gives
 * retries, a dead letter and a replay once it is back, nothing lost or skipped; the bytes Wharf
 * writes onto amqplib's channel (corked writer, PublishBatch) arrive confirmed and in order.
 * Restarts and freezes while batches are in flight, and kill -9 of the sync: rabbitmq-faults.test.ts.
 */
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishBatch, rawPublisher } from '../../runtime/sync/destinations/rabbitmq-frames.js';
import { corkEachWriteRound } from '../../runtime/sync/destinations/rabbitmq-writes.js';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { rabbitAvailable } from '../setup/rabbitmq.js';
import { deduplicated, range, useRabbitSync, type Received } from './rabbitmq-fixture.js';
import { insertProducts, pgEnvironment, projectWith, sql, until } from './sync-fixture.js';

describe.skipIf(!rabbitAvailable)('sync to RabbitMQ', () => {
  const env = useRabbitSync();
  const { consume, destination: rabbitDestination } = env;

  describe('one running service', () => {
    let sync: RunningSync;
    let received: Received[];
    let base = 0;

    beforeAll(async () => {
      received = await consume('orders-products');
      const root = await projectWith(
        { staging: pgEnvironment(env.db.url, [rabbitDestination('orders-products')], { MaxRecordsPerBatch: 3 }) },
        { Health: { Enabled: false }, DeadLetters: { BackoffBaseSeconds: 0.5, ReplayIntervalSeconds: 0.2, MaxReplayAttempts: 100 } },
      );
      sync = await startSync({ root, logLevel: 'silent' });
      base = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version;
    });
    afterAll(async () => sync?.close());

    it('inserts, updates and deletes arrive in order, persistent, with object+version message ids', async () => {
      const [a, b] = await insertProducts(env.db.url, 2, 'MQ-');
      await sql(env.db.url, `UPDATE inventory."Products" SET "UnitPrice" = 1.50 WHERE "ProductId" = $1`, [a]);
      await sql(env.db.url, `DELETE FROM inventory."Products" WHERE "ProductId" = $1`, [b]);
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
      await env.rabbit.halt();
      await sync.prober.round();
      expect(sync.prober.snapshot()['rabbitmq:events']?.last_error).toMatch(/^1 consecutive failure\(s\): /);
      await insertProducts(env.db.url, 5, 'DOWN-');
      const letter = await until('a dead letter', () => sync.service.deadLetters.list({ environment: 'staging', object: 'Products' })[0]);
      expect(letter).toMatchObject({ sourceKey: 'staging/Products/events', destination: 'events', fromVersion: start - 1, toVersion: start + 2, status: 'pending' });
      expect(sync.service.deadLetters.summary()).toMatchObject({ TotalCount: 1, LastHourCount: 1, Last24HoursCount: 1, Last7DaysCount: 1, MostCommonErrorCount: 1 });
      // Blocked: the version stays before the dead-lettered batch while the broker is down.
      await insertProducts(env.db.url, 2, 'WHILE-DOWN-');
      expect(sync.service.state.get('staging', 'Products')?.version).toBe(start - 1);
      await env.rabbit.start();
      await until('all 7 changes', () => new Set(received.slice(before).map((r) => r.id)).size >= 7, 90_000);
      expect(deduplicated(received.slice(before))).toEqual(range(start, start + 6));
      await until('dead letter resolved', () => sync.service.deadLetters.list().length === 0);
      await until('state caught up', () => sync.service.state.get('staging', 'Products')?.version === start + 6);
    }, 180_000);
  });

  it('MessageHeaders false: the same persistent messages (id, type, body, order) without the x-wharf-* headers', async () => {
    const received = await consume('bare-products');
    const root = await projectWith({ staging: pgEnvironment(env.db.url, [{ ...rabbitDestination('bare-products'), MessageHeaders: false }]) }, { Health: { Enabled: false } });
    const sync = await startSync({ root, logLevel: 'silent' });
    try {
      const start = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version + 1;
      const [a, b] = await insertProducts(env.db.url, 2, 'BARE-');
      await sql(env.db.url, `DELETE FROM inventory."Products" WHERE "ProductId" = $1`, [a]);
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
    const root = await projectWith({ staging: pgEnvironment(env.db.url, [destination]) }, { Health: { Enabled: false } });
    const sync = await startSync({ root, logLevel: 'silent' });
    try {
      const start = (await until('initial state', () => sync.service.state.get('staging', 'Products'))).version + 1;
      const [a, b] = await insertProducts(env.db.url, 2, 'DIRECT-');
      await sql(env.db.url, `DELETE FROM inventory."Products" WHERE "ProductId" = $1`, [a]);
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
          env.db.url,
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
      await insertProducts(env.db.url, 3, 'BATCH-');
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

  it("amqplib's writer corked per round: 1,000 published messages leave in far fewer socket writes, all confirmed and received in order", async () => {
    const received = await consume('cork-products');
    const count = async (corked: boolean): Promise<number> => {
      const model = await amqp.connect(env.rabbit.url);
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
    const model = await amqp.connect(env.rabbit.url);
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
});
