/**
 * The Redis connection shared by rate limits, the response cache, token revocations and console
 * events (`Redis:Url`, e.g. `redis://127.0.0.1:6379/0`; secret when it carries a password).
 *
 * Redis may be down, restart or freeze at any time; the gateway keeps serving:
 * - the gateway starts without waiting for Redis and reconnects for as long as it runs (backoff
 *   up to 2 s); one warning line when Redis becomes unreachable, one line when it is back;
 * - a command fails at once while the connection is down (no offline queue) and after
 *   `Redis:CommandTimeoutMs` when Redis does not answer (frozen, overloaded);
 * - after a timeout the link is "held" for HOLD_AFTER_TIMEOUT_MS: callers skip Redis and use their
 *   fallback at once (per-instance rate limits, cache bypass), so a frozen Redis costs one timeout
 *   per second per instance, not one per request;
 * - every connection has an `error` listener (ioredis prints "Unhandled error event" otherwise).
 */
import type { Redis, RedisOptions } from 'ioredis';
import type { ConfigSource } from '../settings/config-source.js';

export interface RedisSettings {
  /** null = Redis not configured. */
  readonly url: string | null;
  /** Prefix of every key Wharf writes, so several deployments can share one Redis. */
  readonly keyPrefix: string;
  /** Deadline of one command, in ms; then the caller's fallback applies. */
  readonly commandTimeoutMs: number;
  /** Deadline of opening the connection, in ms (then it retries). */
  readonly connectTimeoutMs: number;
}

export function readRedisSettings(source: ConfigSource): RedisSettings {
  const url = source.string('Redis:Url').trim();
  return {
    url: url === '' ? null : url,
    keyPrefix: source.string('Redis:KeyPrefix'),
    commandTimeoutMs: source.int('Redis:CommandTimeoutMs'),
    connectTimeoutMs: source.int('Redis:ConnectTimeoutMs'),
  };
}

/** After a command timeout, Redis is skipped for this long (one probe per period finds out when it answers again). */
export const HOLD_AFTER_TIMEOUT_MS = 1000;
/** Longest pause between two reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 2000;

function redisOptions(commandTimeoutMs: number, connectTimeoutMs: number): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
    connectTimeout: connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  };
}

/** A channel subscription of the link (see RedisLink.subscribe). */
export interface RedisSubscription {
  readonly ready: Promise<void>;
  close(): void;
}

export type RedisLogger = (level: 'info' | 'warn', message: string) => void;

/** The gateway's Redis connection and what is known about its health. */
export class RedisLink {
  private heldUntil = 0;
  private unreachable = false;
  private closing = false;
  /** The last failure (connection or command), with its time (epoch ms). */
  lastError: { at: number; message: string } | null = null;

  constructor(
    readonly redis: Redis,
    private readonly log: RedisLogger,
    private readonly now: () => number = Date.now,
  ) {
    redis.on('error', (error: Error) => this.lost(error));
    redis.on('close', () => this.lost(new Error('Connection is closed.')));
    redis.on('ready', () => {
      if (this.unreachable) this.log('info', 'Redis is reachable again: shared rate limits and cache resumed');
      this.unreachable = false;
      this.heldUntil = 0;
    });
  }

  private lost(error: Error): void {
    this.lastError = { at: this.now(), message: error.message };
    if (this.unreachable || this.closing) return;
    this.unreachable = true;
    this.log('warn', `Redis is unreachable (${error.message || 'connection failed'}): rate limits are per instance and the Redis cache is bypassed until it answers`);
  }

  /** Whether a caller should try Redis now (connected, and no timeout in the last HOLD_AFTER_TIMEOUT_MS). */
  available(): boolean {
    return this.redis.status === 'ready' && this.now() >= this.heldUntil;
  }

  /** A command failed: remembered for health; a timeout holds the link for a moment. */
  failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = { at: this.now(), message };
    if (/timed out/i.test(message)) this.heldUntil = this.now() + HOLD_AFTER_TIMEOUT_MS;
  }

  /** PING within the command timeout; the round trip in ms (health check). */
  async ping(): Promise<number> {
    const started = performance.now();
    await this.redis.ping();
    return performance.now() - started;
  }

  /**
   * Subscribes to `channel` on a second connection with the same settings: the subscription is
   * made each time that connection is ready (at start, after every reconnection). Its errors are
   * reported by the main connection's listener. `ready` settles when the first subscription is in
   * place, or at once when Redis cannot be reached (or after the connect timeout): a caller that
   * awaits it at start sees messages published right after, and never waits on a Redis that is down.
   */
  subscribe(channel: string, onMessage: (message: string) => void): RedisSubscription {
    const subscriber = this.redis.duplicate({ autoResubscribe: false });
    let settle: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (settle = resolve));
    const deadline = setTimeout(settle, this.redis.options.connectTimeout ?? 2000);
    deadline.unref();
    const done = (): void => {
      clearTimeout(deadline);
      settle();
    };
    subscriber.on('error', done);
    subscriber.on('end', done);
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).then(done, (error: unknown) => {
        done();
        this.failed(error);
      });
    });
    subscriber.on('message', (received: string, message: string) => {
      if (received === channel) onMessage(message);
    });
    return { ready, close: () => subscriber.disconnect() };
  }

  close(): void {
    this.closing = true;
    this.redis.disconnect();
  }
}

/** Opens the gateway's connection without waiting for Redis (it connects in the background and after every loss). */
export async function openRedisLink(settings: RedisSettings & { readonly url: string }, log: RedisLogger): Promise<RedisLink> {
  // imported here, not at start: a gateway without Redis never loads ioredis
  const { Redis } = await import('ioredis');
  return new RedisLink(new Redis(settings.url, redisOptions(settings.commandTimeoutMs, settings.connectTimeoutMs)), log);
}

/** Connects and waits until the server answers (rejects after `timeoutMs`); for short-lived commands (CLI). */
export async function connectRedis(url: string, timeoutMs = 5000): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { ...redisOptions(timeoutMs, timeoutMs), lazyConnect: true, retryStrategy: () => null });
  redis.on('error', () => undefined); // connect() rejects with it
  await redis.connect();
  return redis;
}
