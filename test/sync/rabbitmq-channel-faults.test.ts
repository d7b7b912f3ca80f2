/**
 * RabbitMQ destination when the broker closes the channel (not the connection) mid-run: the
 * exchange deleted under it (404 on publish). The batch in flight fails (so it is retried, never
 * counted), the next delivery re-opens and re-declares, and the connection whose channel closed
 * is closed too: every channel error (and so every retry and dead-letter replay of one) used to
 * leave one more idle connection, heartbeating, on the broker for the life of the process.
 */
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '../../runtime/sync/destinations/batch.js';
import { createRabbitMqDestination } from '../../runtime/sync/destinations/rabbitmq.js';
import { silentLog } from '../../runtime/sync/engine/log.js';
import { rabbitAvailable, startRabbit, type TestRabbit } from '../setup/rabbitmq.js';
import { until } from './sync-fixture.js';

const batch = (version: number): Batch => ({ environment: 'prod', object: 'Products', type: 'Diff', fromVersion: version - 1, toVersion: version, records: [{ $operation: 'U', $version: version, Id: version }] });

describe.skipIf(!rabbitAvailable)('RabbitMQ destination: channel closed by the broker', () => {
  let rabbit: TestRabbit;
  beforeAll(async () => {
    rabbit = await startRabbit();
  }, 120_000);
  afterAll(async () => rabbit?.stop());

  const connections = async () => (await rabbit.ctl('list_connections', '-q', '--no-table-headers', 'name')).split('\n').filter((l) => l.trim() !== '').length;

  it('exchange deleted under it, three times: each batch then fails, the next one is delivered, one connection stays open', async () => {
    const destination = createRabbitMqDestination(
      { type: 'RabbitMQ', key: 'mq', url: rabbit.url, exchange: 'channel-faults', exchangeType: 'topic', queue: 'channel-faults-q', routingKey: '{environment}.{object}', messagePer: 'Change', messageHeaders: true },
      silentLog,
    );
    const admin = await amqp.connect(rabbit.url);
    admin.on('error', () => undefined);
    try {
      const channel = await admin.createChannel();
      let version = 1;
      await destination.deliver(batch(version++));
      for (let round = 0; round < 3; round++) {
        await channel.deleteExchange('channel-faults');
        await expect(destination.deliver(batch(version))).rejects.toThrow();
        await destination.deliver(batch(version++)); // re-opened, re-declared
      }
      const received: number[] = [];
      for (let m = await channel.get('channel-faults-q', { noAck: true }); m; m = await channel.get('channel-faults-q', { noAck: true })) {
        received.push((JSON.parse(m.content.toString()) as { $version: number }).$version);
      }
      expect(received).toEqual([1, 2, 3, 4]);
      // The admin connection and the destination's current one; the ones whose channel closed are gone.
      expect(await until('the closed channels\' connections closed', async () => ((await connections()) === 2 ? 2 : null), 15_000)).toBe(2);
    } finally {
      await destination.close();
      await admin.close().catch(() => undefined);
    }
  });
  it('publisher confirms lost: a queue full with reject-publish nacks part of a batch, the whole batch is refused (retried, never counted)', async () => {
    await rabbit.ctl('set_policy', 'cap', '^nack-q$', '{"max-length":2,"overflow":"reject-publish"}', '--apply-to', 'queues');
    const destination = createRabbitMqDestination(
      { type: 'RabbitMQ', key: 'mq', url: rabbit.url, exchange: 'nack-x', exchangeType: 'topic', queue: 'nack-q', routingKey: '{environment}.{object}', messagePer: 'Change', messageHeaders: true },
      silentLog,
    );
    try {
      const five: Batch = { ...batch(5), fromVersion: 0, records: [1, 2, 3, 4, 5].map((v) => ({ $operation: 'U', $version: v, Id: v })) };
      await expect(destination.deliver(five)).rejects.toThrow('message nacked');
    } finally {
      await destination.close();
    }
  });
  it('the parts of a Full export without versions get distinct message ids (per change and per batch)', async () => {
    const ids: string[] = [];
    for (const messagePer of ['Change', 'Batch'] as const) {
      const queue = `parts-${messagePer}`;
      const destination = createRabbitMqDestination(
        { type: 'RabbitMQ', key: 'mq', url: rabbit.url, exchange: `parts-x-${messagePer}`, exchangeType: 'topic', queue, routingKey: '{environment}.{object}', messagePer, messageHeaders: true },
        silentLog,
      );
      try {
        const full = { environment: 'prod', object: 'Products', type: 'Full', fromVersion: 0 } as const;
        await destination.deliver({ ...full, toVersion: 0, part: 1, records: [{ Id: 1 }] });
        await destination.deliver({ ...full, toVersion: 0, part: 2, records: [{ Id: 2 }] });
        await destination.deliver({ ...full, toVersion: 9, records: [{ Id: 3 }] });
      } finally {
        await destination.close();
      }
      const model = await amqp.connect(rabbit.url);
      try {
        const channel = await model.createChannel();
        for (let m = await channel.get(queue, { noAck: true }); m; m = await channel.get(queue, { noAck: true })) ids.push(String(m.properties.messageId));
      } finally {
        await model.close();
      }
    }
    expect(ids).toEqual(['prod/Products/0.part1.0', 'prod/Products/0.part2.0', 'prod/Products/9.0', 'prod/Products/0.part1', 'prod/Products/0.part2', 'prod/Products/9']);
  });
});
