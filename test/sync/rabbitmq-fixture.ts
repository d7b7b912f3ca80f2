/**
 * Shared set-up of the RabbitMQ sync tests: a real PostgreSQL with the outbox example and a real
 * broker for the enclosing describe, consumers that reconnect when the broker comes back, the
 * destination entry of a queue, and how a consumer de-duplicates what it received.
 */
import { PassThrough } from 'node:stream';
import amqp, { type ChannelModel } from 'amqplib';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startRabbit, type TestRabbit } from '../setup/rabbitmq.js';
import { installOutbox } from './sync-fixture.js';

export interface Received {
  readonly id: string;
  readonly version: number;
  readonly operation: string;
  readonly body: Record<string, unknown>;
  /** The message's header names, sorted. */
  readonly headers: string[];
  readonly persistent: boolean;
}

export interface RabbitSync {
  readonly db: TestPostgres;
  readonly rabbit: TestRabbit;
  /** A consumer of `queue` that reconnects when the broker comes back (unacked messages are redelivered). */
  consume(queue: string): Promise<Received[]>;
  /** A RabbitMQ destination (Key `events`) publishing to its own exchange with `queue` bound. */
  destination(queue: string): Record<string, unknown>;
}

/** Starts PostgreSQL (with the outbox) and a broker before the enclosing describe's tests, and stops both and every consumer after. */
export function useRabbitSync(): RabbitSync {
  let db: TestPostgres | undefined;
  let rabbit: TestRabbit | undefined;
  const consumers: ChannelModel[] = [];
  let closing = false;

  beforeAll(async () => {
    [db, rabbit] = await Promise.all([startPostgres(), startRabbit()]);
    await installOutbox(db.url);
  }, 120_000);

  afterAll(async () => {
    closing = true;
    await Promise.all(consumers.map((c) => c.close().catch(() => undefined)));
    await Promise.all([db?.stop(), rabbit?.stop()]);
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useRabbitSync: used before its beforeAll ran');
    return value;
  };

  async function consume(queue: string, received: Received[] = []): Promise<Received[]> {
    const connection = await amqp.connect(started(rabbit).url);
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

  return {
    get db() {
      return started(db);
    },
    get rabbit() {
      return started(rabbit);
    },
    consume: (queue) => consume(queue),
    destination: (queue) => ({ Type: 'RabbitMQ', Key: 'events', Url: started(rabbit).url, Exchange: `wharf.${queue}`, Queue: queue }),
  };
}

/** Versions in first-seen order; redeliveries are dropped the way a consumer de-duplicates. */
export function deduplicated(received: readonly Received[]): number[] {
  const seen = new Set<string>();
  return received.filter((r) => !seen.has(r.id) && seen.add(r.id)).map((r) => r.version);
}

export const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A log stream for startSync and the lines written to it. */
export function capturedLog(): { readonly stream: PassThrough; readonly lines: string[] } {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
  return { stream, lines };
}
