/**
 * The frames of one RabbitMQ publish of the sync (basic.publish, content header, one body frame) in
 * one buffer, byte for byte what amqplib 2.x writes for the same publish (rabbitmq-frames.test.ts
 * compares them), without its generic codec: amqplib copies the headers into a new object per
 * message, walks it with for-in through the prototype and encodes method, properties and body into
 * three buffers before copying them into a fourth; with the x-wharf-* headers that was about half
 * of the sync's CPU per change. Only the properties the sync sets; anything else goes through
 * amqplib's publish (publishFrames returns null).
 */
import type { ConfirmChannel } from 'amqplib';

export interface PublishProperties {
  readonly contentType: string;
  /** Header name and value, in order; null: an empty table (what amqplib sends without headers). */
  readonly headers: readonly (readonly [string, string | number])[] | null;
  readonly messageId: string;
  /** Seconds since the epoch. */
  readonly timestamp: number;
  readonly type: string;
}

const FRAME_END = 0xce;
/** Class 60 (basic), method 40 (publish); class 60, weight 0 for the content header. */
const BASIC_PUBLISH = 0x003c0028;
const BASIC_HEADER = 0x003c0000;
/** contentType, headers, deliveryMode, messageId, timestamp, type. */
const FLAGS = 0x8000 | 0x2000 | 0x1000 | 0x80 | 0x40 | 0x20;
const PERSISTENT = 2;

/** amqplib's choice between double and integer (codec.js isFloatingPoint). */
function isFloatingPoint(n: number): boolean {
  return n >= 0x8000000000000000 || (Math.abs(n) < 0x4000000000000 && Math.floor(n) !== n);
}

function fieldValueSize(value: string | number): number {
  if (typeof value === 'string') return 5 + Buffer.byteLength(value);
  if (isFloatingPoint(value)) return 9;
  if (value < 128 && value >= -128) return 2;
  if (value >= -0x8000 && value < 0x8000) return 3;
  if (value >= -0x80000000 && value < 0x80000000) return 5;
  return 9;
}

function writeFieldValue(buffer: Buffer, value: string | number, offset: number): number {
  if (typeof value === 'string') {
    buffer[offset] = 0x53; // 'S' long string
    const length = buffer.write(value, offset + 5);
    buffer.writeUInt32BE(length, offset + 1);
    return offset + 5 + length;
  }
  if (isFloatingPoint(value)) {
    buffer[offset] = 0x64; // 'd'
    buffer.writeDoubleBE(value, offset + 1);
    return offset + 9;
  }
  if (value < 128 && value >= -128) {
    buffer[offset] = 0x62; // 'b'
    buffer.writeInt8(value, offset + 1);
    return offset + 2;
  }
  if (value >= -0x8000 && value < 0x8000) {
    buffer[offset] = 0x73; // 's'
    buffer.writeInt16BE(value, offset + 1);
    return offset + 3;
  }
  if (value >= -0x80000000 && value < 0x80000000) {
    buffer[offset] = 0x49; // 'I'
    buffer.writeInt32BE(value, offset + 1);
    return offset + 5;
  }
  buffer[offset] = 0x6c; // 'l'
  buffer.writeBigInt64BE(BigInt(value), offset + 1);
  return offset + 9;
}

/** An unsigned 64-bit integer below 2^53 (a body size, a timestamp in seconds) without a BigInt. */
function writeUInt64(buffer: Buffer, value: number, offset: number): void {
  buffer.writeUInt32BE(Math.floor(value / 0x100000000), offset);
  buffer.writeUInt32BE(value >>> 0, offset + 4);
}

function writeShortString(buffer: Buffer, text: string, length: number, offset: number): number {
  buffer[offset] = length;
  buffer.write(text, offset + 1);
  return offset + 1 + length;
}

/**
 * The three frames of a persistent publish of `body` (UTF-8 text) on `channel`, or null when amqplib
 * must encode it: a short string of 256 bytes or more (amqplib refuses it), a header name of 256 bytes or
 * more, or a body that needs more than one frame under `frameMax`.
 */
export function publishFrames(channel: number, exchange: string, routingKey: string, properties: PublishProperties, body: string, frameMax: number): Buffer | null {
  const exchangeLength = Buffer.byteLength(exchange);
  const routingKeyLength = Buffer.byteLength(routingKey);
  const contentTypeLength = Buffer.byteLength(properties.contentType);
  const messageIdLength = Buffer.byteLength(properties.messageId);
  const typeLength = Buffer.byteLength(properties.type);
  if (exchangeLength > 255 || routingKeyLength > 255 || contentTypeLength > 255 || messageIdLength > 255 || typeLength > 255) return null;
  if (!Number.isSafeInteger(properties.timestamp) || properties.timestamp < 0) return null;
  let tableSize = 0;
  for (const [name, value] of properties.headers ?? []) {
    const nameLength = Buffer.byteLength(name);
    if (nameLength > 255) return null;
    tableSize += 1 + nameLength + fieldValueSize(value);
  }
  const bodyLength = Buffer.byteLength(body);
  if (bodyLength + 8 > frameMax) return null;
  const methodSize = 9 + exchangeLength + routingKeyLength;
  const headerSize = 14 + 1 + contentTypeLength + 4 + tableSize + 1 + 1 + messageIdLength + 8 + 1 + typeLength;
  const frames = Buffer.allocUnsafe(8 + methodSize + 8 + headerSize + (bodyLength > 0 ? 8 + bodyLength : 0));

  // basic.publish: ticket 0, exchange, routing key, mandatory and immediate off.
  frames[0] = 1;
  frames.writeUInt16BE(channel, 1);
  frames.writeUInt32BE(methodSize, 3);
  frames.writeUInt32BE(BASIC_PUBLISH, 7);
  frames.writeUInt16BE(0, 11);
  let offset = writeShortString(frames, exchange, exchangeLength, 13);
  offset = writeShortString(frames, routingKey, routingKeyLength, offset);
  frames[offset++] = 0;
  frames[offset++] = FRAME_END;

  // Content header: body size, then the properties in their flag order.
  const header = offset;
  frames[offset] = 2;
  frames.writeUInt16BE(channel, offset + 1);
  frames.writeUInt32BE(headerSize, offset + 3);
  frames.writeUInt32BE(BASIC_HEADER, offset + 7);
  writeUInt64(frames, bodyLength, offset + 11);
  frames.writeUInt16BE(FLAGS, offset + 19);
  offset = writeShortString(frames, properties.contentType, contentTypeLength, offset + 21);
  frames.writeUInt32BE(tableSize, offset);
  offset += 4;
  for (const [name, value] of properties.headers ?? []) {
    offset = writeShortString(frames, name, Buffer.byteLength(name), offset);
    offset = writeFieldValue(frames, value, offset);
  }
  frames[offset++] = PERSISTENT;
  offset = writeShortString(frames, properties.messageId, messageIdLength, offset);
  writeUInt64(frames, properties.timestamp, offset);
  offset = writeShortString(frames, properties.type, typeLength, offset + 8);
  frames[offset++] = FRAME_END;
  if (offset - header !== 8 + headerSize) throw new Error('content header frame size mismatch');

  if (bodyLength > 0) {
    frames[offset] = 3;
    frames.writeUInt16BE(channel, offset + 1);
    frames.writeUInt32BE(bodyLength, offset + 3);
    frames.write(body, offset + 7);
    frames[offset + 7 + bodyLength] = FRAME_END;
  }
  return frames;
}

/** What of amqplib's confirm channel the raw publish uses (amqplib 2.x channel.js / connection.js). */
interface ChannelInternals {
  readonly ch: number;
  readonly connection: {
    readonly channels: readonly ({ readonly channel: unknown; readonly buffer: { write(chunk: Buffer): boolean } } | null)[];
    readonly frameMax: number;
    sentSinceLastCheck: boolean;
  };
  pushConfirmCallback(callback: (error: Error | null) => void): void;
}

export interface RawPublisher {
  readonly channel: number;
  readonly frameMax: number;
  /**
   * Writes the frames to the channel's outgoing queue (as amqplib's publish does) and registers
   * `confirm` for the broker's ack or nack; false when the channel or connection is closing or
   * closed (amqplib's publish then throws its error).
   */
  publish(frames: Buffer, confirm: (error: Error | null) => void): boolean;
}

/**
 * The raw publisher of an amqplib confirm channel, or null where amqplib does not have the expected
 * shape (then every message goes through amqplib's publish); test/sync/rabbitmq.test.ts fails if it
 * is null against the installed amqplib.
 */
export function rawPublisher(channel: ConfirmChannel): RawPublisher | null {
  const internals = channel as unknown as Partial<ChannelInternals>;
  const connection = internals.connection;
  const number = internals.ch;
  if (typeof number !== 'number' || typeof internals.pushConfirmCallback !== 'function' || !connection || typeof connection.frameMax !== 'number') return null;
  const slot = connection.channels?.[number];
  if (!slot || slot.channel !== channel || typeof slot.buffer?.write !== 'function') return null;
  const { buffer } = slot;
  const push = internals.pushConfirmCallback.bind(channel);
  return {
    channel: number,
    frameMax: connection.frameMax,
    publish(frames, confirm) {
      // amqplib marks a closing or closed channel or connection by giving it its own sendMessage that throws.
      if (Object.hasOwn(channel, 'sendMessage') || Object.hasOwn(connection, 'sendMessage') || connection.channels[number] !== slot) return false;
      buffer.write(frames);
      connection.sentSinceLastCheck = true;
      push(confirm);
      return true;
    },
  };
}
