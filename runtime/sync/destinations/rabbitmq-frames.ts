/**
 * The frames of the sync's RabbitMQ publishes (basic.publish, content header, one body frame each),
 * byte for byte what amqplib 2.x writes for the same publishes (rabbitmq-frames.test.ts compares
 * them), without its generic codec: amqplib copies the headers into a new object per message, walks
 * it with for-in through the prototype and encodes method, properties and body into three buffers
 * before copying them into a fourth; with the x-wharf-* headers that was about half of the sync's
 * CPU per change. A batch's messages are encoded back to back into shared buffers and leave in one
 * or two writes onto amqplib's channel instead of one per message. Only the properties the sync
 * sets; anything else goes through amqplib's publish (PublishBatch.add returns false).
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

/** A short string's UTF-8 bytes (null: 256 bytes or more, amqplib refuses it). */
function shortBytes(text: string): Buffer | null {
  const bytes = Buffer.from(text);
  return bytes.length > 255 ? null : bytes;
}

/**
 * Writes an ASCII short string with a loop (a message id: the batch's prefix and the version),
 * anything else through Buffer.write; returns the offset after it, or -1 when it is 256 bytes or more.
 */
function writeVariableShortString(buffer: Buffer, text: string, offset: number): number {
  const length = text.length;
  if (length <= 255) {
    let ascii = true;
    for (let i = 0; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) {
        ascii = false;
        break;
      }
      buffer[offset + 1 + i] = code;
    }
    if (ascii) {
      buffer[offset] = length;
      return offset + 1 + length;
    }
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > 255) return -1;
  buffer[offset] = bytes;
  buffer.write(text, offset + 1);
  return offset + 1 + bytes;
}

/** Most bytes a publish's frames other than the body and the message id, type and header values take: every short string at 255. */
const MAX_FIXED = 8 + 9 + 2 * 256 + 1 + 8 + 14 + 256 + 4 + 1 + 256 + 8 + 1 + 8;
const SEGMENT = 256 * 1024;

/**
 * The frames of many publishes on one channel, back to back in as few buffers as possible (256 KiB
 * each, about 800 changes of the bench): amqplib's bytes for each of them, the short strings a batch repeats (exchange, routing keys, content type, header names and text
 * values, types) encoded once, the body written straight into the buffer. One write of such a
 * buffer onto amqplib's channel replaces one write per message.
 */
export class PublishBatch {
  private readonly strings = new Map<string, Buffer | null>();
  private buffer: Buffer = Buffer.alloc(0);
  private start = 0;
  private offset = 0;
  private readonly segments: Buffer[] = [];
  /** Publishes encoded since the last take(). */
  count = 0;

  constructor(
    readonly channel: number,
    readonly frameMax: number,
  ) {}

  private short(text: string): Buffer | null {
    let bytes = this.strings.get(text);
    if (bytes === undefined) {
      bytes = shortBytes(text);
      if (this.strings.size >= 256) this.strings.clear();
      this.strings.set(text, bytes);
    }
    return bytes;
  }

  private reserve(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    if (this.offset > this.start) this.segments.push(this.buffer.subarray(this.start, this.offset));
    this.buffer = Buffer.allocUnsafe(Math.max(SEGMENT, bytes));
    this.start = this.offset = 0;
  }

  /**
   * Appends a persistent publish of `body`; false (nothing appended) where amqplib must encode it:
   * a short string of 256 bytes or more (amqplib refuses it), a header name of 256 bytes or more, a
   * body that needs more than one frame under `frameMax`, a timestamp that is no whole number of
   * seconds. The caller then takes what is encoded so far and publishes this one through amqplib.
   */
  add(exchange: string, routingKey: string, properties: PublishProperties, body: string): boolean {
    const exchangeBytes = this.short(exchange);
    const routingKeyBytes = this.short(routingKey);
    const contentTypeBytes = this.short(properties.contentType);
    if (!exchangeBytes || !routingKeyBytes || !contentTypeBytes) return false;
    if (!Number.isSafeInteger(properties.timestamp) || properties.timestamp < 0) return false;
    // Header values: numbers take at most 9 bytes, texts their encoded length (5 more for the type and length).
    let headerBound = 0;
    const headers = properties.headers;
    if (headers) {
      for (const [name, value] of headers) {
        const nameBytes = this.short(name);
        if (!nameBytes) return false;
        headerBound += 1 + nameBytes.length + (typeof value === 'string' ? 5 + 3 * value.length : 9);
      }
    }
    // The body is written first where its frame will be, then measured: 3 bytes per UTF-16 unit at most.
    const bound = MAX_FIXED + headerBound + 3 * (properties.messageId.length + properties.type.length) + 3 * body.length;
    this.reserve(bound);
    const frames = this.buffer;
    const first = this.offset;

    // basic.publish
    frames[first] = 1;
    frames.writeUInt16BE(this.channel, first + 1);
    const methodSize = 9 + exchangeBytes.length + routingKeyBytes.length;
    frames.writeUInt32BE(methodSize, first + 3);
    frames.writeUInt32BE(BASIC_PUBLISH, first + 7);
    frames.writeUInt16BE(0, first + 11);
    let offset = first + 13;
    frames[offset++] = exchangeBytes.length;
    frames.set(exchangeBytes, offset);
    offset += exchangeBytes.length;
    frames[offset++] = routingKeyBytes.length;
    frames.set(routingKeyBytes, offset);
    offset += routingKeyBytes.length;
    frames[offset++] = 0;
    frames[offset++] = FRAME_END;

    // Content header; its size and the body size are filled in at the end.
    const header = offset;
    frames[offset] = 2;
    frames.writeUInt16BE(this.channel, offset + 1);
    frames.writeUInt32BE(BASIC_HEADER, offset + 7);
    frames.writeUInt16BE(FLAGS, offset + 19);
    offset += 21;
    frames[offset++] = contentTypeBytes.length;
    frames.set(contentTypeBytes, offset);
    offset += contentTypeBytes.length;
    const table = offset;
    offset += 4;
    if (headers) {
      for (const [name, value] of headers) {
        const nameBytes = this.short(name) as Buffer;
        frames[offset++] = nameBytes.length;
        frames.set(nameBytes, offset);
        offset += nameBytes.length;
        offset = writeFieldValue(frames, value, offset);
      }
    }
    frames.writeUInt32BE(offset - table - 4, table);
    frames[offset++] = PERSISTENT;
    offset = writeVariableShortString(frames, properties.messageId, offset);
    if (offset < 0) return false;
    writeUInt64(frames, properties.timestamp, offset);
    offset = writeVariableShortString(frames, properties.type, offset + 8);
    if (offset < 0) return false;
    frames[offset++] = FRAME_END;
    frames.writeUInt32BE(offset - header - 8, header + 3);

    let bodyLength = 0;
    if (body.length > 0) {
      bodyLength = frames.write(body, offset + 7);
      if (bodyLength + 8 > this.frameMax) return false;
      frames[offset] = 3;
      frames.writeUInt16BE(this.channel, offset + 1);
      frames.writeUInt32BE(bodyLength, offset + 3);
      frames[offset + 7 + bodyLength] = FRAME_END;
      offset += 8 + bodyLength;
    }
    writeUInt64(frames, bodyLength, header + 11);
    this.offset = offset;
    this.count++;
    return true;
  }

  /** The frames appended since the last take (in order, usually one buffer) and their number of publishes. */
  take(): { readonly chunks: Buffer[]; readonly count: number } {
    const chunks = this.segments.splice(0);
    if (this.offset > this.start) chunks.push(this.buffer.subarray(this.start, this.offset));
    this.start = this.offset;
    const count = this.count;
    this.count = 0;
    return { chunks, count };
  }
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
   * Writes `chunks`, the frames of `count` publishes (PublishBatch.take), to the channel's outgoing
   * queue (as amqplib's publish does) and registers `confirm` for the broker's ack or nack of each;
   * false when the channel or connection is closing or closed (nothing written).
   */
  publishMany(chunks: readonly Buffer[], count: number, confirm: (error: Error | null) => void): boolean;
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
  // amqplib marks a closing or closed channel or connection by giving it its own sendMessage that throws.
  const open = (): boolean => !Object.hasOwn(channel, 'sendMessage') && !Object.hasOwn(connection, 'sendMessage') && connection.channels[number] === slot;
  return {
    channel: number,
    frameMax: connection.frameMax,
    publishMany(chunks, count, confirm) {
      if (!open()) return false;
      for (const chunk of chunks) buffer.write(chunk);
      connection.sentSinceLastCheck = true;
      for (let i = 0; i < count; i++) push(confirm);
      return true;
    },
  };
}
