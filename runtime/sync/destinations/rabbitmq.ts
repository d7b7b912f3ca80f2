/**
 * RabbitMQ destination: a confirm channel on one connection, a durable exchange (and optionally a
 * durable queue bound with the routing key), persistent messages; deliver() resolves only after
 * the broker confirmed every message of the batch, send() as soon as they are written (the next
 * batch may follow while the broker confirms). Message id = environment/object/version, so a
 * consumer drops what it has already seen. A lost connection is re-opened on the next delivery.
 * Per-change messages are encoded by rabbitmq-frames.ts (the same bytes as amqplib's publish, at
 * a fraction of its CPU) and queued on amqplib's channel; anything it does not cover goes through
 * amqplib's publish.
 */
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import type { RabbitMqDestination } from '../config/model.js';
import { recordVersion, type ChangeRecord } from '../source/change-set.js';
import { batchJson, batchVersionId, changeId, type Batch } from './batch.js';
import { fillTemplate, type SentBatch, type SyncDestination } from './destination.js';
import type { SyncLog } from '../engine/log.js';
import { corkEachWriteRound } from './rabbitmq-writes.js';
import { PublishBatch, rawPublisher, type PublishProperties, type RawPublisher } from './rabbitmq-frames.js';

interface Open {
  readonly connection: ChannelModel;
  readonly channel: ConfirmChannel;
  /** Per-change messages encoded by rabbitmq-frames.ts (null: all through amqplib's publish). */
  readonly raw: RawPublisher | null;
  /** The encoder of `raw`'s channel: a batch's messages leave in one write. */
  readonly frames: PublishBatch | null;
  /** Direct exchange with a queue: the routing keys the queue is bound with on this connection. */
  readonly bound: Set<string>;
}

export const CONNECT_TIMEOUT_MS = 5000;
/**
 * AMQP heartbeat when the Url names none (`?heartbeat=`): amqplib otherwise takes the broker's 60 s
 * and gives up on a frozen broker only after two to three of them, so a batch would wait for its
 * confirms that long. With 10 s the connection closes 20 to 30 s after the broker stops answering;
 * the unconfirmed batches are refused and retried (docs/sync.md, RabbitMQ).
 */
export const DEFAULT_HEARTBEAT_SECONDS = 10;

/** The Url with `heartbeat=DEFAULT_HEARTBEAT_SECONDS` added when it has no heartbeat of its own. */
export function withDefaultHeartbeat(url: string): string {
  const parsed = new URL(url);
  if (parsed.searchParams.has('heartbeat')) return url;
  parsed.searchParams.set('heartbeat', String(DEFAULT_HEARTBEAT_SECONDS));
  return parsed.href;
}

export function createRabbitMqDestination(config: RabbitMqDestination, log: SyncLog): SyncDestination {
  let open: Promise<Open> | null = null;
  /** The connection `open` is (or is being) built on. */
  let current: ChannelModel | null = null;

  async function connect(): Promise<Open> {
    const connection = await amqp.connect(withDefaultHeartbeat(config.url), { timeout: CONNECT_TIMEOUT_MS });
    corkEachWriteRound(connection);
    current = connection;
    /** Forgets this connection, only if it is still the current one (a late close of an old one must not orphan its successor). */
    const drop = (): void => {
      if (current !== connection) return;
      current = null;
      open = null;
    };
    connection.on('error', (error: Error) => log.warn({ event: 'sync.rabbitmq_error', destination: config.key, err: error.message }, 'RabbitMQ connection error'));
    connection.on('close', drop);
    try {
      const channel = await connection.createConfirmChannel();
      channel.on('error', (error: Error) => log.warn({ event: 'sync.rabbitmq_error', destination: config.key, err: error.message }, 'RabbitMQ channel error'));
      // The broker closed the channel (a publish to a deleted exchange, a message over its size
      // limit): the next delivery opens a new connection, so this one is closed, not left open.
      channel.on('close', () => {
        drop();
        connection.close().catch(() => undefined);
      });
      await channel.assertExchange(config.exchange, config.exchangeType, { durable: true });
      if (config.queue) {
        await channel.assertQueue(config.queue, { durable: true });
        // topic: every change of the exchange; fanout: all; direct: each routing key the
        // destination fills in, bound before its first message (bindings()).
        if (config.exchangeType !== 'direct') await channel.bindQueue(config.queue, config.exchange, config.exchangeType === 'topic' ? '#' : '');
      }
      const raw = rawPublisher(channel);
      return { connection, channel, raw, frames: raw && new PublishBatch(raw.channel, raw.frameMax), bound: new Set() };
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  function channel(): Promise<Open> {
    open ??= connect().catch((error: unknown) => {
      open = null;
      current = null;
      throw error;
    });
    return open;
  }

  /** Routing keys by environment, object and operation: the template is filled once, not per message. */
  const routes = new Map<string, string>();
  function route(environment: string, object: string, operation: string): string {
    const key = `${environment}\0${object}\0${operation}`;
    let filled = routes.get(key);
    if (filled === undefined) {
      filled = fillTemplate(config.routingKey, { environment, object, operation });
      if (routes.size < 1024) routes.set(key, filled);
    }
    return filled;
  }

  /**
   * Direct exchange with a queue: binds the queue with each routing key of the batch it is not bound
   * with yet (the key is a template, so the binding cannot be made once at connect: a binding with
   * the unfilled template routed nothing to the queue, and the broker confirms unroutable messages).
   */
  async function bindings(via: Open, batch: Batch): Promise<void> {
    if (config.exchangeType !== 'direct' || !config.queue) return;
    const operations = config.messagePer === 'Batch' ? ['batch'] : new Set(batch.records.map((r) => String(r['$operation'] ?? 'U')));
    for (const operation of operations) {
      const key = route(batch.environment, batch.object, operation);
      if (via.bound.has(key)) continue;
      await via.channel.bindQueue(config.queue, config.exchange, key);
      via.bound.add(key);
    }
  }

  /**
   * Publishes every message of the batch (in order, on the one confirm channel; behind an
   * unconfirmed `after`, on that batch's channel or not at all) and resolves once they are
   * written; `accepted` resolves when the broker confirmed all of them and rejects at the first
   * nack or when the channel closes with any of them unconfirmed.
   */
  async function send(batch: Batch, after?: SentBatch): Promise<SentBatch> {
    const via = await channel();
    if (after && !after.confirmed && after.via !== via) throw new Error('the connection was re-opened while an earlier batch awaited its confirms');
    await bindings(via, batch);
    const ch = via.channel;
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const accepted = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    accepted.catch(() => undefined); // a batch abandoned at shutdown is never awaited
    const sent = { accepted, via, confirmed: false };
    let unconfirmed = config.messagePer === 'Batch' ? 1 : batch.records.length;
    let refused = false;
    const confirm = (error: Error | null): void => {
      if (refused) return;
      if (error) {
        refused = true;
        reject(error instanceof Error ? error : new Error(String(error)));
      } else if (--unconfirmed === 0) {
        sent.confirmed = true;
        resolve();
      }
    };
    const timestamp = Math.floor(Date.now() / 1000);
    const { environment, object } = batch;
    if (config.messagePer === 'Batch') {
      ch.publish(
        config.exchange,
        route(environment, object, 'batch'),
        Buffer.from(batchJson(batch)),
        {
          persistent: true,
          contentType: 'application/json',
          timestamp,
          messageId: changeId(environment, object, batchVersionId(batch)),
          type: 'batch',
          ...(config.messageHeaders ? { headers: { 'x-wharf-from-version': batch.fromVersion, 'x-wharf-version': batch.toVersion } } : {}),
        },
        confirm,
      );
    } else {
      const texts = batch.recordJson;
      const prefix = changeId(environment, object, '');
      const { raw, frames } = via;
      /** Writes what `frames` holds onto the channel (before anything goes through amqplib's publish, so the order stays). */
      const flush = (): void => {
        if (!raw || !frames || frames.count === 0) return;
        const { chunks, count } = frames.take();
        if (!raw.publishMany(chunks, count, confirm)) throw new Error('Channel closed');
      };
      frames?.take(); // whatever an earlier send left when it threw midway is never sent
      /** Routing keys of this batch by operation (one object: no template lookup per message). */
      const routingKeys = new Map<string, string>();
      for (let i = 0; i < batch.records.length; i++) {
        const record = batch.records[i] as ChangeRecord;
        const operation = String(record['$operation'] ?? 'U');
        const version = recordVersion(record) ?? `${batchVersionId(batch)}.${i}`;
        const text = texts?.[i] ?? JSON.stringify(record);
        let routingKey = routingKeys.get(operation);
        if (routingKey === undefined) routingKeys.set(operation, (routingKey = route(environment, object, operation)));
        const properties: PublishProperties = {
          contentType: 'application/json',
          headers: config.messageHeaders
            ? [
                ['x-wharf-environment', environment],
                ['x-wharf-object', object],
                ['x-wharf-version', version],
                ['x-wharf-operation', operation],
              ]
            : null,
          messageId: prefix + version,
          timestamp,
          type: operation,
        };
        if (frames?.add(config.exchange, routingKey, properties, text)) continue;
        flush();
        ch.publish(
          config.exchange,
          routingKey,
          Buffer.from(text),
          { persistent: true, contentType: properties.contentType, timestamp, messageId: properties.messageId, type: operation, ...(properties.headers ? { headers: Object.fromEntries(properties.headers) } : {}) },
          confirm,
        );
      }
      flush();
    }
    if (unconfirmed === 0) {
      sent.confirmed = true;
      resolve();
    }
    return sent;
  }

  return {
    key: config.key,
    type: 'RabbitMQ',
    send,
    async deliver(batch: Batch) {
      await (await send(batch)).accepted;
    },
    async close() {
      const opened = open;
      open = null;
      current = null;
      if (opened) await (await opened.catch(() => null))?.connection.close().catch(() => undefined);
    },
  };
}

/** Opens and closes a connection (health prober). */
export async function probeRabbitMq(url: string): Promise<void> {
  const connection = await amqp.connect(url, { timeout: CONNECT_TIMEOUT_MS });
  connection.on('error', () => undefined);
  await connection.close();
}
