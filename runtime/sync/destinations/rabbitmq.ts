/**
 * RabbitMQ destination: a confirm channel on one connection, a durable exchange (and optionally a
 * durable queue bound with the routing key), persistent messages; deliver() resolves only after
 * the broker confirmed every message of the batch. Message id = environment/object/version, so a
 * consumer drops what it has already seen. A lost connection is re-opened on the next delivery.
 */
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { RabbitMqDestination } from '../config/model.js';
import { recordVersion } from '../source/change-set.js';
import { batchEnvelope, changeId, type Batch } from './batch.js';
import { fillTemplate, type SyncDestination } from './destination.js';
import type { SyncLog } from '../engine/log.js';

interface Open {
  readonly connection: ChannelModel;
  readonly channel: ConfirmChannel;
}

export const CONNECT_TIMEOUT_MS = 5000;

export function createRabbitMqDestination(config: RabbitMqDestination, log: SyncLog): SyncDestination {
  let open: Promise<Open> | null = null;

  async function connect(): Promise<Open> {
    const connection = await amqp.connect(config.url, { timeout: CONNECT_TIMEOUT_MS });
    const drop = (): void => {
      open = null;
    };
    connection.on('error', (error: Error) => log.warn({ event: 'sync.rabbitmq_error', destination: config.key, err: error.message }, 'RabbitMQ connection error'));
    connection.on('close', drop);
    try {
      const channel = await connection.createConfirmChannel();
      channel.on('error', (error: Error) => log.warn({ event: 'sync.rabbitmq_error', destination: config.key, err: error.message }, 'RabbitMQ channel error'));
      channel.on('close', drop);
      await channel.assertExchange(config.exchange, config.exchangeType, { durable: true });
      if (config.queue) {
        await channel.assertQueue(config.queue, { durable: true });
        // topic: every change of the exchange; direct: the routing key as written; fanout: all.
        const binding = config.exchangeType === 'topic' ? '#' : config.exchangeType === 'direct' ? config.routingKey : '';
        await channel.bindQueue(config.queue, config.exchange, binding);
      }
      return { connection, channel };
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  function channel(): Promise<Open> {
    open ??= connect().catch((error: unknown) => {
      open = null;
      throw error;
    });
    return open;
  }

  return {
    key: config.key,
    type: 'RabbitMQ',
    async deliver(batch: Batch) {
      const { channel: ch } = await channel();
      const route = (operation: string) => fillTemplate(config.routingKey, { environment: batch.environment, object: batch.object, operation });
      const common = { persistent: true, contentType: 'application/json', timestamp: Math.floor(Date.now() / 1000) };
      if (config.messagePer === 'Batch') {
        ch.publish(config.exchange, route('batch'), Buffer.from(JSON.stringify(batchEnvelope(batch))), {
          ...common,
          messageId: changeId(batch.environment, batch.object, batch.toVersion),
          type: 'batch',
          headers: { 'x-wharf-from-version': batch.fromVersion, 'x-wharf-version': batch.toVersion },
        });
      } else {
        batch.records.forEach((record, i) => {
          const operation = String(record['$operation'] ?? 'U');
          const version = recordVersion(record) ?? `${batch.toVersion}.${i}`;
          ch.publish(config.exchange, route(operation), Buffer.from(JSON.stringify(record)), {
            ...common,
            messageId: changeId(batch.environment, batch.object, version),
            type: operation,
            headers: { 'x-wharf-environment': batch.environment, 'x-wharf-object': batch.object, 'x-wharf-version': version, 'x-wharf-operation': operation },
          });
        });
      }
      await ch.waitForConfirms();
    },
    async close() {
      const current = open;
      open = null;
      if (current) await (await current.catch(() => null))?.connection.close().catch(() => undefined);
    },
  };
}

/** Opens and closes a connection (health prober). */
export async function probeRabbitMq(url: string): Promise<void> {
  const connection = await amqp.connect(url, { timeout: CONNECT_TIMEOUT_MS });
  connection.on('error', () => undefined);
  await connection.close();
}
