/** PublishBatch writes, byte for byte, what the installed amqplib writes for the same publishes. */
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PublishBatch, type PublishProperties } from './rabbitmq-frames.js';

const require = createRequire(import.meta.url);
const amqplibDir = path.dirname(require.resolve('amqplib'));
const defs = require(path.join(amqplibDir, 'lib/defs.js')) as {
  BasicPublish: number;
  BasicProperties: number;
  encodeMethod(id: number, channel: number, fields: unknown): Buffer;
  encodeProperties(id: number, channel: number, size: number, fields: unknown): Buffer;
};
const Args = require(path.join(amqplibDir, 'lib/api_args.js')) as { publish(exchange: string, routingKey: string, options: unknown): unknown };
const { makeBodyFrame } = require(path.join(amqplibDir, 'lib/frame.js')) as { makeBodyFrame(channel: number, payload: Buffer): Buffer };

/** amqplib's frames for ch.publish(exchange, routingKey, Buffer.from(body), options) (connection.js sendMessage). */
function amqplibFrames(channel: number, exchange: string, routingKey: string, properties: PublishProperties, body: string): Buffer {
  const content = Buffer.from(body);
  const options = {
    persistent: true,
    contentType: properties.contentType,
    timestamp: properties.timestamp,
    messageId: properties.messageId,
    type: properties.type,
    ...(properties.headers ? { headers: Object.fromEntries(properties.headers) } : {}),
  };
  const fields = Args.publish(exchange, routingKey, options);
  return Buffer.concat([
    defs.encodeMethod(defs.BasicPublish, channel, fields),
    defs.encodeProperties(defs.BasicProperties, channel, content.length, fields),
    ...(content.length > 0 ? [makeBodyFrame(channel, content)] : []),
  ]);
}

const headers = (version: string | number): PublishProperties['headers'] => [
  ['x-wharf-environment', 'prod'],
  ['x-wharf-object', 'Products'],
  ['x-wharf-version', version],
  ['x-wharf-operation', 'U'],
];
const properties = (version: string | number, withHeaders = true): PublishProperties => ({
  contentType: 'application/json',
  headers: withHeaders ? headers(version) : null,
  messageId: `prod/Products/${version}`,
  timestamp: 1_764_157_500,
  type: 'U',
});
const record = JSON.stringify({ $operation: 'U', $version: 42, ProductId: 7, Sku: 'A-1', ProductName: 'Größe ✓ 🚢', UnitPrice: 9.99 });

/** One publish alone through PublishBatch: its frames, or null when it refuses it. */
function publishFrames(channel: number, exchange: string, routingKey: string, props: PublishProperties, body: string, frameMax: number): Buffer | null {
  const batch = new PublishBatch(channel, frameMax);
  if (!batch.add(exchange, routingKey, props, body)) return null;
  const { chunks, count } = batch.take();
  expect(count).toBe(1);
  return Buffer.concat(chunks);
}

describe('one publish', () => {
  it.each([
    ['a change with the four headers', 1, 'wharf.sync', 'prod.Products', properties(42), record],
    ['an 8-bit version', 3, 'x', 'k', properties(5), record],
    ['a 16-bit version', 3, 'x', 'k', properties(300), record],
    ['a 32-bit version', 3, 'x', 'k', properties(70_000), record],
    ['a 64-bit version', 3, 'x', 'k', properties(2 ** 40 + 3), record],
    ['a negative version', 3, 'x', 'k', properties(-5_000), record],
    ['a fractional version', 3, 'x', 'k', properties(1.5), record],
    ['a text version (a change without $version)', 2, 'wharf.sync', 'prod.Products.U', properties('17.3'), record],
    ['no headers (MessageHeaders false): an empty table, as amqplib sends', 1, 'wharf.sync', 'prod.Products', properties(42, false), record],
    ['non-ASCII exchange, routing key and header values', 9, 'wharf.ünï', 'prød.Prödücts', { ...properties(1), headers: [['x-wharf-object', 'Prödücts ✓']] as const }, record],
    ['a timestamp past 2^32 (both words of the 64-bit field)', 1, 'wharf.sync', 'prod.Products', { ...properties(1), timestamp: 2 ** 40 + 5 }, record],
    ['an empty body (no body frame)', 1, 'wharf.sync', 'prod.Products', properties(1), ''],
    ['a body of 100 kB', 1, 'wharf.sync', 'prod.Products', properties(1), JSON.stringify({ pad: 'é'.repeat(50_000) })],
  ] as const)('%s', (_name, channel, exchange, routingKey, props, body) => {
    const ours = publishFrames(channel, exchange, routingKey, props, body, 131_072);
    expect(ours).not.toBeNull();
    expect(ours?.equals(amqplibFrames(channel, exchange, routingKey, props, body))).toBe(true);
  });

  it('leaves to amqplib what needs more than one body frame or a short string over 255 bytes', () => {
    expect(publishFrames(1, 'x', 'k', properties(1), 'a'.repeat(4089), 4096)).toBeNull();
    expect(publishFrames(1, 'x', 'k', properties(1), 'a'.repeat(4088), 4096)).not.toBeNull();
    expect(publishFrames(1, 'x'.repeat(256), 'k', properties(1), record, 131_072)).toBeNull();
    expect(publishFrames(1, 'x', 'k', { ...properties(1), messageId: 'm'.repeat(256) }, record, 131_072)).toBeNull();
    expect(publishFrames(1, 'x', 'k', { ...properties(1), headers: [['h'.repeat(256), 1]] }, record, 131_072)).toBeNull();
    expect(publishFrames(1, 'x', 'k', { ...properties(1), timestamp: 1.5 }, record, 131_072)).toBeNull();
  });
});

describe('PublishBatch', () => {
  const cases = [
    ['wharf.sync', 'prod.Products', properties(42), record],
    ['wharf.sync', 'prod.Products.D', { ...properties(43), type: 'D' }, '{"$operation":"D","$version":43,"ProductId":7}'],
    ['wharf.sync', 'prod.Products', properties(300), record],
    ['wharf.sync', 'prod.Products', properties(70_000), record],
    ['wharf.sync', 'prod.Products', properties(2 ** 40 + 3), record],
    ['wharf.sync', 'prod.Products', properties(-5_000), record],
    ['wharf.sync', 'prod.Products', properties(1.5), record],
    ['wharf.sync', 'prod.Products.U', properties('17.3'), record],
    ['wharf.sync', 'prod.Products', properties(44, false), record],
    ['wharf.ünï', 'prød.Prödücts', { ...properties(1), messageId: 'prød/Prödücts/1', headers: [['x-wharf-object', 'Prödücts ✓']] as const }, record],
    ['wharf.sync', 'prod.Products', { ...properties(1), timestamp: 2 ** 40 + 5 }, record],
    ['wharf.sync', 'prod.Products', properties(2), ''],
    ['wharf.sync', 'prod.Products', properties(3), JSON.stringify({ pad: 'é'.repeat(50_000) })],
  ] as const;

  it('a run of publishes: the bytes of amqplib for each, back to back, over several buffers when they fill up', () => {
    const batch = new PublishBatch(5, 131_072);
    const expected: Buffer[] = [];
    for (let round = 0; round < 4; round++) {
      for (const [exchange, routingKey, props, body] of cases) {
        expect(batch.add(exchange, routingKey, props, body)).toBe(true);
        expected.push(amqplibFrames(5, exchange, routingKey, props, body));
      }
    }
    const { chunks, count } = batch.take();
    expect(count).toBe(4 * cases.length);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(Buffer.concat(expected))).toBe(true);
    expect(batch.take()).toEqual({ chunks: [], count: 0 });
    // After a take the next publishes follow in the same buffer, apart from the ones taken.
    expect(batch.add('x', 'k', properties(7), record)).toBe(true);
    expect(Buffer.concat(batch.take().chunks).equals(amqplibFrames(5, 'x', 'k', properties(7), record))).toBe(true);
  });

  it('refuses, appending nothing, what it leaves to amqplib, and goes on after it', () => {
    const batch = new PublishBatch(1, 4096);
    expect(batch.add('x', 'k', properties(1), record)).toBe(true);
    expect(batch.add('x', 'k', properties(1), 'a'.repeat(4089))).toBe(false);
    expect(batch.add('x', 'k', properties(1), 'é'.repeat(2045))).toBe(false);
    expect(batch.add('x'.repeat(256), 'k', properties(1), record)).toBe(false);
    expect(batch.add('x', 'k', { ...properties(1), messageId: 'm'.repeat(256) }, record)).toBe(false);
    expect(batch.add('x', 'k', { ...properties(1), messageId: 'é'.repeat(128) }, record)).toBe(false);
    expect(batch.add('x', 'k', { ...properties(1), headers: [['h'.repeat(256), 1]] }, record)).toBe(false);
    expect(batch.add('x', 'k', { ...properties(1), timestamp: 1.5 }, record)).toBe(false);
    expect(batch.add('x', 'k', properties(2), 'a'.repeat(4088))).toBe(true);
    const { chunks, count } = batch.take();
    expect(count).toBe(2);
    expect(Buffer.concat(chunks).equals(Buffer.concat([amqplibFrames(1, 'x', 'k', properties(1), record), amqplibFrames(1, 'x', 'k', properties(2), 'a'.repeat(4088))]))).toBe(true);
  });
});
